package org.braid.coalloc;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Runs the co-allocated {@link DatasetTask}s of a job ({@link DatasetTask.Mode#DOWNLOAD}): the file
 * as a {@link Download} from the task's servers into its place, resumable, verified, with the job's
 * per-file guards; the servers' rates fed from the download's progress. Thread-safe.
 */
final class DatasetCoalloc {
  private final DatasetSpec spec;
  private final SourcePool pool;
  private final DatasetFetch fetch;

  DatasetCoalloc(DatasetSpec spec, SourcePool pool, DatasetFetch fetch) {
    this.spec = spec;
    this.pool = pool;
    this.fetch = fetch;
  }

  DatasetOutcome run(DatasetTask t, DatasetFile f, Path target) {
    // in the order the download keeps them (by predicted rate when every one has a rate), so
    // that its progress reports each server's rate at the same index
    List<Integer> order = new ArrayList<>();
    List<PredictedRate> rates = new ArrayList<>();
    for (int k = 0; k < t.sources.size(); k++) {
      order.add(k);
      double r = t.servers.get(k).rate(0);
      if (r > 0) {
        rates.add(new PredictedRate(t.sources.get(k), r));
      }
    }
    boolean rated = rates.size() == t.sources.size();
    if (rated) {
      order.sort((x, y) -> Double.compare(t.servers.get(y).rate(0), t.servers.get(x).rate(0)));
    }
    List<URI> sources = new ArrayList<>();
    List<DatasetServer> servers = new ArrayList<>();
    Map<URI, DatasetServer> byUri = new LinkedHashMap<>();
    for (int k : order) {
      sources.add(t.sources.get(k));
      servers.add(t.servers.get(k));
      byUri.put(t.sources.get(k), t.servers.get(k));
    }
    RateFeed feed = new RateFeed(t, servers, spec.ticker());
    Download d =
        Download.builder()
            .sources(sources)
            .output(target)
            .scheme(spec.scheme())
            .predictedRates(rated ? rates : List.of())
            .maxSources(8)
            .sourceOptions(spec.options())
            .checksums(f.checksums())
            .pieces(f.pieces())
            .journal(spec.journal())
            .resume(spec.resume())
            .clock(spec.clock())
            .progress(feed)
            .sourceFactory(pool::open)
            .maxTries(
                spec.guards().maxTries() > 0 ? spec.guards().maxTries() : Guards.DEFAULT.maxTries())
            .lowSpeedLimit(spec.guards().lowSpeedLimit(), spec.guards().lowSpeedTime())
            .maxBytesPerSecond(spec.guards().maxBytesPerSecond())
            .maxRetryAfter(spec.guards().maxRetryAfter())
            .build();
    t.onCancel(d::cancel);
    try {
      DownloadReport r = d.run();
      Map<String, Long> bytes = new LinkedHashMap<>();
      for (ReplicaReport rr : r.replicas()) {
        DatasetServer s = byUri.get(rr.uri());
        if (s != null && rr.bytes() > 0) {
          bytes.merge(s.key, rr.bytes(), Long::sum);
        }
        if (s != null) {
          feed.settle(s, rr.receivedBytes());
        }
      }
      fetch.record(target, f.path(), r.bytes(), r.digests());
      return DatasetOutcome.ok(r.bytes(), r.digests(), bytes);
    } catch (DownloadException e) {
      if (t.cancelled) {
        return DatasetOutcome.cancelled(t.size);
      }
      String why = OneLine.of(e);
      boolean mismatch = why.contains("checksum mismatch");
      List<DatasetOutcome.Failure> all = new ArrayList<>();
      for (URI u : t.sources) {
        all.add(new DatasetOutcome.Failure(u, why, !mismatch));
      }
      return DatasetOutcome.failed(t.size, mismatch ? List.of() : all, mismatch);
    } catch (IOException e) {
      return DatasetOutcome.local(t.size, OneLine.of(e));
    } finally {
      t.onCancel(null);
    }
  }

  /**
   * Turns a co-allocated download's progress into the task's bytes and its servers' rates (an
   * estimate from the replicas' rates while it runs, settled to the received bytes at the end).
   */
  private static final class RateFeed implements Consumer<Progress> {
    private final DatasetTask t;
    private final List<DatasetServer> servers;
    private final Ticker ticker;
    private final long[] added;
    private long last;

    RateFeed(DatasetTask t, List<DatasetServer> servers, Ticker ticker) {
      this.t = t;
      this.servers = servers;
      this.ticker = ticker;
      this.added = new long[servers.size()];
      this.last = ticker.read();
    }

    /** Counts the bytes the server really delivered in place of the estimate added so far. */
    synchronized void settle(DatasetServer s, long received) {
      int k = servers.indexOf(s);
      if (k >= 0) {
        s.delivered.add(received - added[k]);
        added[k] = received;
      }
    }

    @Override
    public synchronized void accept(Progress p) {
      long now = ticker.read();
      double dt = (now - last) / 1e9;
      last = now;
      t.size = p.size();
      t.received = p.bytesDone();
      List<Double> r = p.replicaRates();
      for (int k = 0; k < r.size() && k < servers.size(); k++) {
        long n = Math.round(r.get(k) * dt);
        servers.get(k).delivered.add(n);
        added[k] += n;
      }
    }
  }
}
