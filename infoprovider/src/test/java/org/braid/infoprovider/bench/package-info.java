/**
 * Benchmarks, run on demand (never by surefire): JMH for log parsing, a bounded load harness for
 * /v1/stats. Commands and results are in docs/provider.md.
 */
package org.braid.infoprovider.bench;
