/**
 * Smoke test of the WAN benchmark harness ({@code src/test/bench/}): network namespaces shaped with
 * tc, real nginx mirrors, and a download with Braid's default scheme.
 */
package org.braid.bench;
