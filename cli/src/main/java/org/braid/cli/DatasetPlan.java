package org.braid.cli;

import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.braid.broker.Broker;
import org.braid.broker.Request;
import org.braid.broker.catalog.CatalogFile;
import org.braid.broker.catalog.Replica;
import org.braid.broker.graph.MinMin;
import org.braid.coalloc.DatasetFile;
import org.braid.coalloc.PredictedRate;

/**
 * The broker's batch plan of a dataset ({@link Broker#planBatch}: each file planned, then ordered
 * by Min-Min, with the client's capacity if given) turned into the dataset job's inputs: the files
 * in the plan's order, each file's replicas with the plan's servers first (largest share first),
 * and each server's predicted rate (its share over its planned time). Files the plan cannot take
 * (size unknown or zero) follow in the input's order.
 *
 * @param files the files in the order to fetch them
 * @param rates predicted rates per server (one URL of each), empty without a plan
 * @param note why there is no plan, or null
 */
record DatasetPlan(List<DatasetFile> files, List<PredictedRate> rates, String note) {

  /** No plan: the input's order, rates measured as the job runs. */
  static DatasetPlan none(List<DatasetFile> files, String why) {
    return new DatasetPlan(files, List.of(), why);
  }

  /**
   * Plans the dataset with the broker.
   *
   * @throws IllegalArgumentException if the Requirements expression does not parse
   */
  static DatasetPlan of(DatasetInputs in, Broker broker, String requirements) {
    Map<String, Request> requests = new LinkedHashMap<>();
    Map<String, DatasetFile> byPath = new HashMap<>();
    long nominal = nominalSize(in.files());
    // the expressions parsed once (they are immutable), not for each file: 1,000 requests took
    // 19-33 ms of a fresh JVM's CPU with a parse each, 7-9 ms without, beside the job's start
    Request parsed =
        Request.builder(in.catalog().get(0).replicas()).requirements(requirements).build();
    for (int i = 0; i < in.files().size(); i++) {
      DatasetFile f = in.files().get(i);
      CatalogFile c = in.catalog().get(i);
      byPath.put(f.path(), f);
      long size = f.size() > 0 ? f.size() : f.size() == 0 ? 1 : nominal;
      requests.put(f.path(), new Request(c.replicas(), size, parsed.requirements(), parsed.rank()));
    }
    List<MinMin.Scheduled> plan;
    try {
      plan = broker.planBatch(requests);
    } catch (IllegalArgumentException e) {
      return none(in.files(), e.getMessage());
    }
    List<DatasetFile> ordered = new ArrayList<>(in.files().size());
    Map<String, PredictedRate> rates = new LinkedHashMap<>();
    for (MinMin.Scheduled s : plan) {
      DatasetFile f = byPath.get(s.id());
      ordered.add(f.withSources(sources(f, s)));
      for (URI u : f.sources()) {
        String k = server(u);
        Long share = s.shares().get(k);
        Double start = s.starts().get(k);
        if (share != null && start != null && s.completion() > start && share > 0) {
          double r = share / (s.completion() - start);
          if (Double.isFinite(r) && r > 0) {
            rates.putIfAbsent(k, new PredictedRate(u, r));
          }
        }
      }
    }
    return new DatasetPlan(ordered, List.copyOf(rates.values()), null);
  }

  /** The size files of unknown size are planned with: the median known size, else 1 MiB. */
  static long nominalSize(List<DatasetFile> files) {
    List<Long> known = new ArrayList<>();
    int step = Math.max(1, files.size() / 1001);
    for (int i = 0; i < files.size(); i += step) {
      if (files.get(i).size() > 0) {
        known.add(files.get(i).size());
      }
    }
    if (known.isEmpty()) {
      return 1L << 20;
    }
    known.sort(null);
    return known.get(known.size() / 2);
  }

  /** The file's replicas: the plan's servers by share, largest first, then the others. */
  private static List<URI> sources(DatasetFile f, MinMin.Scheduled s) {
    List<URI> planned = new ArrayList<>();
    List<URI> rest = new ArrayList<>();
    for (URI u : f.sources()) {
      Long share = s.shares().get(server(u));
      if (share != null && share > 0) {
        planned.add(u);
      } else {
        rest.add(u);
      }
    }
    planned.sort(Comparator.comparingLong((URI u) -> s.shares().get(server(u))).reversed());
    planned.addAll(rest);
    return planned;
  }

  /** The broker's name of a replica's server: host:port. */
  static String server(URI u) {
    Replica r = Replica.of(u);
    return r.host().toLowerCase(Locale.ROOT) + ":" + Math.max(0, r.port());
  }
}
