package org.braid.broker;

import java.util.List;
import java.util.Objects;
import org.braid.broker.catalog.Replica;

/**
 * A co-allocation plan for one file: the replicas to fetch from at once, each with its predicted
 * rate B_i and initial share s_i = B_i / A * S (paper 003, section 4.3.2, A = sum of B_i).
 *
 * @param size the file size in bytes, -1 when unknown (then only fractions are given)
 * @param shares the chosen replicas, best first; empty when no replica matched
 * @param bound the max-flow bound on the aggregate rate of all matched replicas with a forecast
 *     (bytes per second; 0 when none had a forecast)
 * @param rate A, the summed planned rate of the chosen replicas (at least 95% of the bound by
 *     default; 0 without forecasts)
 * @param ranking every replica as {@link Broker#select} ranked it
 */
public record Plan(
    long size, List<Share> shares, double bound, double rate, List<RankedReplica> ranking) {

  /** Copies the lists. */
  public Plan {
    shares = List.copyOf(shares);
    ranking = List.copyOf(ranking);
  }

  /**
   * One replica of the plan.
   *
   * @param replica the replica
   * @param predictedRate B_i in bytes per second: its rate in the max flow of the chosen set (at
   *     most its forecast); 0 when no replica had a forecast
   * @param fraction B_i / A (equal shares without forecasts)
   * @param bytes the initial share s_i = fraction * S in bytes, -1 when the size is unknown; the
   *     shares add up to S exactly
   */
  public record Share(Replica replica, double predictedRate, double fraction, long bytes) {
    /** Checks the fields. */
    public Share {
      Objects.requireNonNull(replica, "replica");
    }
  }
}
