/** JMH benchmarks for matching, ranking and evaluation; built only with the Maven profile jmh. */
package org.braid.matchmaking.bench;
