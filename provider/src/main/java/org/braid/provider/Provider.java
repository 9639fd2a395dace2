package org.braid.provider;

import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import org.braid.infoprovider.TransferLogs;
import org.braid.infoprovider.TransferRecord;
import org.braid.infoprovider.VolumeSpace;
import org.braid.infoprovider.logs.LogTailer;
import org.braid.infoprovider.logs.ParseReport;
import org.braid.infoprovider.store.Point;
import org.braid.infoprovider.store.Store;
import org.braid.infoprovider.wire.Endpoint;
import org.braid.infoprovider.wire.ScopedStats;
import org.braid.predictors.Forecaster;
import org.braid.provider.probe.DiskProbe;
import org.braid.provider.probe.IperfImporter;
import org.braid.provider.probe.NetworkProbe;
import org.braid.provider.probe.Probe;
import org.braid.provider.probe.QuartzJobs;
import org.braid.provider.publish.HttpLimits;
import org.braid.provider.publish.ProviderHttpServer;
import org.braid.provider.publish.ProviderMetrics;
import org.braid.provider.publish.SeriesSource;
import org.braid.provider.publish.Snapshot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The information provider: reads the configured logs into the store, runs the probes, computes
 * statistics with forecasts and publishes them over HTTP. The entry point of the module.
 *
 * <pre>
 * try (Provider p = Provider.fromConfig(ProviderConfig.load(path), InstantSource.system())) {
 *   p.start();          // HTTP server and schedules
 *   ...                 // until shutdown
 * }
 * </pre>
 *
 * <p>Thread-safe: logs are read and statistics computed under one lock; readers get an immutable
 * {@link Snapshot}. A failing log, probe or store write is logged and retried on schedule; it never
 * stops the daemon.
 */
public final class Provider implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Provider.class);
  private static final AtomicInteger INSTANCES = new AtomicInteger();

  /** Statistics are recomputed at least this often even without new data (retention moves). */
  private static final Duration MAX_SNAPSHOT_AGE = Duration.ofMinutes(5);

  private final ProviderConfig config;
  private final InstantSource clock;
  private final Store store;
  private final List<ConfiguredLog> logs = new ArrayList<>();
  private final List<Probe> probes = new ArrayList<>();
  private final Map<Probe, Duration> probeIntervals = new LinkedHashMap<>();
  private final Forecaster forecaster = Forecaster.builder().build();
  private volatile Snapshot snapshot;
  private boolean dirty = true;

  /**
   * Statistics of the stored transfers per endpoint, kept up to date as transfers are stored
   * (guarded by this).
   */
  private EndpointStatistics statistics;

  private final VolumeSpaces volumes;

  private final ProviderMetrics metrics;

  private ProviderHttpServer http;

  private QuartzJobs jobs;

  private Provider(ProviderConfig config, InstantSource clock, Store store) {
    this.config = config;
    this.clock = clock;
    this.store = store;
    this.volumes = new VolumeSpaces(config.volumes());
    this.metrics = new ProviderMetrics(this::snapshot);
    for (ProviderConfig.Log l : config.logs()) {
      Endpoint e = config.endpointOf(l);
      if (e == null && l.endpoint() == null && !config.url().isEmpty()) {
        LOG.warn(
            "log {}: url {} does not fit format {}; its statistics are host-level (give the log"
                + " an endpoint)",
            l.path(),
            config.url(),
            l.format().name().toLowerCase(Locale.ROOT));
      }
      logs.add(
          new ConfiguredLog(
              new LogTailer(l.path(), l.format(), store, l.volume(), r -> stored(e, r)), e));
    }
    ProviderConfig.Network net = config.probes().network();
    if (net != null) {
      for (ProviderConfig.Peer p : net.peers()) {
        add(
            new NetworkProbe(p.address(), p.url(), net.timeout(), clock, System::nanoTime),
            net.interval());
      }
    }
    if (config.probes().iperf() != null) {
      add(new IperfImporter(config.probes().iperf().folder()), config.probes().iperf().interval());
    }
    ProviderConfig.Disk disk = config.probes().disk();
    if (disk != null) {
      add(new DiskProbe(disk.diskstats(), disk.devices(), clock), disk.interval());
    }
    this.snapshot =
        new Snapshot(
            clock.instant(), config.hostname(), List.of(), Map.of(), Map.of(), Map.of(), Map.of());
  }

  private void add(Probe p, Duration interval) {
    probes.add(p);
    probeIntervals.put(p, interval);
  }

  /**
   * Opens the store of a configuration. Nothing runs until {@link #start()}.
   *
   * @throws NullPointerException if an argument is null
   * @throws IOException if the store cannot be opened
   */
  public static Provider fromConfig(ProviderConfig config, InstantSource clock) throws IOException {
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(clock, "clock");
    Store store = Store.open(config.database(), clock, config.retention());
    return new Provider(config, clock, store);
  }

  /** The configuration. */
  public ProviderConfig config() {
    return config;
  }

  /** The configured probes, in configuration order. */
  public List<Probe> probes() {
    return List.copyOf(probes);
  }

  /** The store (for status commands and tests). */
  public Store store() {
    return store;
  }

  /** The current published snapshot. */
  public Snapshot snapshot() {
    return snapshot;
  }

  /**
   * Reads what is new in every log and recomputes the statistics if anything changed (or the
   * snapshot is older than 5 minutes). The statistics are kept in memory and updated with each
   * newly stored transfer; they are rebuilt from the store at start and after the hourly purge, so
   * transfers leave them at most an hour after they leave the retention window.
   *
   * @return what the logs held since the last refresh
   */
  public synchronized ParseReport refresh() {
    if (statistics == null) {
      try {
        rebuild();
      } catch (IOException | RuntimeException e) {
        LOG.error("statistics: {}", e.toString());
      }
    }
    ParseReport delta = new ParseReport();
    for (ConfiguredLog l : logs) {
      ParseReport r = l.poll(metrics);
      dirty |= r.lines() > 0;
      delta.merge(r);
    }
    Map<String, Boolean> missing = missingLogs();
    if (!missing.equals(snapshot.missingLogs())) {
      // A log that disappears or comes back is published at once, new statistics or not.
      snapshot = snapshot.withMissingLogs(missing);
    }
    Instant now = clock.instant();
    if (dirty || Duration.between(snapshot.computedAt(), now).compareTo(MAX_SNAPSHOT_AGE) >= 0) {
      try {
        snapshot = compute(now);
        dirty = false;
      } catch (IOException | RuntimeException e) {
        LOG.error("statistics: {}", e.toString());
      }
    } else if (!volumes.isEmpty()) {
      // Space changes without transfers: publish it fresh on every poll.
      Map<String, VolumeSpace> space = volumes.read();
      if (!space.equals(snapshot.volumes())) {
        snapshot = snapshot.withVolumes(space);
      }
    }
    return delta;
  }

  /**
   * Takes one measurement with a probe and stores its points.
   *
   * @return the points stored
   */
  public Map<String, Point> runProbe(Probe probe) {
    try {
      Map<String, Point> points = probe.measure();
      for (Map.Entry<String, Point> e : points.entrySet()) {
        store.addSample(e.getKey(), e.getValue());
      }
      metrics.probeRun(probe.name(), true);
      if (!points.isEmpty()) {
        synchronized (this) {
          dirty = true;
        }
      }
      return points;
    } catch (IOException | RuntimeException e) {
      LOG.warn("probe {}: {}", probe.name(), e.toString());
      metrics.probeRun(probe.name(), false);
      return Map.of();
    }
  }

  /**
   * Computes a snapshot from the store as it is, without reading logs (for one-shot reports such as
   * {@code braid provider ldif --config}).
   *
   * @throws IOException if the store cannot be read
   */
  public Snapshot computeFromStore() throws IOException {
    return compute(clock.instant());
  }

  /**
   * A snapshot of statistics read from logs, published for {@code hostname} and the endpoint {@code
   * url} (empty for none: host-level), for one-shot reports such as {@code braid provider ldif
   * --format}.
   *
   * @throws IllegalArgumentException if the url is not an endpoint URL
   */
  public static Snapshot snapshotOf(
      TransferLogs.Statistics stats, String hostname, String url, Instant computedAt) {
    Endpoint endpoint = url.isEmpty() ? null : Endpoint.parse(url);
    ParseReport report = stats.report();
    return new Snapshot(
        computedAt,
        hostname,
        stats.stats().stream().map(s -> new ScopedStats(endpoint, s)).toList(),
        report.rejected() == 0 ? Map.of() : Map.of("logs", report.rejectedByReason()),
        Map.of(),
        Map.of(),
        Map.of());
  }

  /** Called by the tailers (under this provider's lock) for each newly stored transfer. */
  private void stored(Endpoint endpoint, TransferRecord r) {
    metrics.transferStored(endpoint, r);
    if (statistics != null) {
      statistics.add(endpoint, r);
    }
  }

  /** Rebuilds the in-memory statistics from the store (at start and after each purge). */
  private synchronized void rebuild() throws IOException {
    statistics = EndpointStatistics.fromStore(store, logs);
    dirty = true;
  }

  private synchronized Snapshot compute(Instant now) throws IOException {
    if (statistics == null) {
      rebuild();
    }
    ProviderConfig.Disk disk = config.probes().disk();
    ProbeSeries probe =
        ProbeSeries.read(
            store,
            forecaster,
            disk == null ? null : DiskProbe.utilSeries(disk.devices().get(0)),
            now);
    Map<String, Boolean> missing = missingLogs();
    return new Snapshot(
        now,
        config.hostname(),
        statistics.result(probe.inputs()),
        store.rejections(),
        missing,
        probe.last(),
        volumes.read());
  }

  /** Whether each configured log was missing at its last poll. */
  private Map<String, Boolean> missingLogs() {
    Map<String, Boolean> missing = new LinkedHashMap<>();
    for (ConfiguredLog l : logs) {
      missing.put(l.tailer().path().toString(), l.tailer().missing());
    }
    return missing;
  }

  /** The provider's Prometheus metrics (served at {@code /metrics}). */
  public ProviderMetrics metrics() {
    return metrics;
  }

  /**
   * Starts the HTTP server and the schedules: log polling every {@code poll}, each probe on its
   * interval, retention purge hourly.
   *
   * @throws IOException if the port cannot be bound or the scheduler cannot start
   */
  public synchronized void start() throws IOException {
    if (http != null) {
      throw new IllegalStateException("provider already started");
    }
    refresh();
    SeriesSource series =
        new SeriesSource() {
          @Override
          public List<String> names() throws IOException {
            return store.seriesNames();
          }

          @Override
          public List<Point> points(String name) throws IOException {
            return store.series(name);
          }
        };
    http =
        ProviderHttpServer.start(
            InetAddress.getByName(config.http().bind()),
            config.http().port(),
            this::snapshot,
            series,
            HttpLimits.DEFAULT,
            metrics);
    jobs = new QuartzJobs("braid-provider-" + INSTANCES.incrementAndGet(), 3);
    jobs.every("logs", config.poll(), this::refresh);
    int i = 0;
    for (Probe p : probes) {
      jobs.every("probe-" + (i++) + "-" + p.name(), probeIntervals.get(p), () -> runProbe(p));
    }
    jobs.every("purge", Duration.ofHours(1), this::purge);
    jobs.start();
  }

  /** The scheduled jobs and their intervals (empty before {@link #start()}). */
  public synchronized Map<String, Duration> schedules() {
    return jobs == null ? Map.of() : jobs.intervals();
  }

  private void purge() {
    try {
      Map<String, Integer> n = store.purge();
      LOG.info("retention: purged {}", n);
      rebuild();
    } catch (IOException e) {
      LOG.error("retention: {}", e.toString());
    }
  }

  /** The HTTP port, once started. */
  public synchronized int httpPort() {
    if (http == null) {
      throw new IllegalStateException("provider not started");
    }
    return http.port();
  }

  /** Stops the schedules (waiting for running jobs), the HTTP server, and closes the store. */
  @Override
  public void close() throws IOException {
    QuartzJobs j;
    ProviderHttpServer h;
    synchronized (this) {
      j = jobs;
      h = http;
    }
    if (j != null) {
      j.close();
    }
    if (h != null) {
      h.close();
    }
    synchronized (this) {
      store.close();
    }
  }
}
