package org.braid.broker;

import java.net.URI;
import java.util.Collection;
import java.util.Map;

/**
 * Finds what information providers publish: for each provider address, its storage ads (and the
 * latest probe values it publishes), or why there are none. {@link HttpDiscovery} asks providers
 * over HTTP; another directory (an LDAP information system, say) is another implementation.
 *
 * <p>Implementations are thread-safe, cache answers for as long as they see fit, and bound the time
 * one {@link #fetch} takes: a provider that does not answer in time is reported as a failed answer,
 * never waited on without end.
 */
interface Discovery extends AutoCloseable {

  /**
   * The answer of every provider, in the order given (duplicates once), from the cache where fresh,
   * else queried; never null for a provider asked, failures included.
   */
  Map<URI, ProviderAnswer> fetch(Collection<URI> providers);

  /** Puts an answer into the cache as if it had just been fetched (benchmarks, tests). */
  void prime(ProviderAnswer answer);

  /** Drops every cached answer. */
  void clear();

  /** Releases what the discovery holds (connections, threads). */
  @Override
  void close();
}
