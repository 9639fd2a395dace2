package org.braid.broker;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.braid.infoprovider.SizeClass;
import org.braid.matchmaking.ClassAd;
import org.braid.matchmaking.Matchmaker;

/**
 * Matches and ranks storage ads against a request with the ClassAd {@link Matchmaker} (paper 003,
 * section 2.3): the request ad is {@code [Requirements; Rank; FileSize; SizeClass]}, with the
 * paper's attribute aliases. Stateless.
 */
final class Ranker {

  private Ranker() {}

  /**
   * The replicas ranked: matched ones best first (by rank; ties keep the given order), then the
   * rejected ones in the given order, each with its reason.
   */
  static List<RankedReplica> rank(Request request, SizeClass sc, List<ReplicaAd> ads) {
    ClassAd requestAd =
        ClassAd.builder()
            .set(Matchmaker.REQUIREMENTS, request.requirements())
            .set(Matchmaker.RANK, request.rank())
            .set("FileSize", request.size())
            .set("SizeClass", sc.label())
            .build();
    Matchmaker.Ranking ranking =
        Matchmaker.builder(requestAd)
            .paperAliases(true)
            .build()
            .rank(ads.stream().map(ReplicaAd::ad).toList());
    List<RankedReplica> out = new ArrayList<>(ads.size());
    for (Matchmaker.Match m : ranking.matches()) {
      double rank = Double.isFinite(m.rank()) ? m.rank() : 0;
      out.add(ranked(ads.get(m.index()), true, rank, null));
    }
    for (Matchmaker.Rejection rj : ranking.rejections()) {
      String reason =
          rj.reasons().isEmpty()
              ? "requirements not met"
              : rj.reasons().stream()
                  .map(Matchmaker.FailedClause::explain)
                  .collect(Collectors.joining("; "));
      out.add(ranked(ads.get(rj.index()), false, 0, reason));
    }
    return out;
  }

  private static RankedReplica ranked(ReplicaAd a, boolean matched, double rank, String reason) {
    return new RankedReplica(
        a.replica(),
        matched,
        rank,
        a.forecast(),
        a.source(),
        a.ad(),
        reason,
        a.note(),
        a.forecastNote());
  }
}
