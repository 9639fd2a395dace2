package org.braid.coalloc;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** Builds and renders a {@link DatasetReport}: JSON and a short text summary. */
public final class DatasetReports {
  private DatasetReports() {}

  static DatasetReport build(
      String id, DatasetSpec spec, DatasetScheduler s, Path dir, Instant start, double seconds) {
    List<DatasetFileReport> files = new ArrayList<>(spec.files().size());
    long bytes = 0;
    String stopped = s.stopped();
    for (int i = 0; i < spec.files().size(); i++) {
      DatasetFile f = spec.files().get(i);
      DatasetFileState st = s.state(i);
      String status = st.status;
      String error = st.error;
      if (status == null || status.equals(DatasetScheduler.COMMITTING)) {
        status = DatasetFileState.FAILED;
        error = "not fetched: the job stopped (" + stopped + "); run again to go on";
      }
      if (!status.equals(DatasetFileState.FAILED)) {
        bytes += Math.max(0, st.size);
      }
      files.add(
          new DatasetFileReport(
              f.path(),
              st.size >= 0 ? st.size : f.size(),
              status,
              round(st.seconds, 3),
              status.equals(DatasetFileState.FAILED) ? null : st.sha256,
              st.servers,
              error));
    }
    List<DatasetReplicaReport> servers = new ArrayList<>();
    long fetched = 0;
    for (DatasetServer v : s.servers()) {
      long got = v.delivered.sum();
      fetched += got;
      double mean = v.busyNanos > 0 ? got / (v.busyNanos / 1e9) : 0;
      servers.add(
          new DatasetReplicaReport(
              v.key, v.files, v.bytes, round(mean, 0), v.predicted, v.failures, v.dropped));
    }
    return new DatasetReport(id, dir, files, servers, start, seconds, bytes, fetched, stopped);
  }

  /**
   * The report as one JSON object: totals ({@code files}, {@code fetched}, {@code skipped}, {@code
   * failed}, {@code bytes}, {@code fetchedBytes}, {@code seconds}, {@code throughput}, {@code
   * stopped}), then {@code servers} and {@code fileReports} (each file with its status, size,
   * seconds, sha256, bytes per server and error).
   */
  public static String json(DatasetReport r) {
    StringBuilder sb = new StringBuilder(256 + 200 * r.files().size());
    sb.append("{\"id\":").append(Json.str(r.id()));
    sb.append(",\"directory\":").append(Json.str(r.directory().toString()));
    sb.append(",\"files\":").append(r.files().size());
    sb.append(",\"fetched\":").append(r.count(DatasetFileState.FETCHED));
    sb.append(",\"skipped\":").append(r.count(DatasetFileState.SKIPPED));
    sb.append(",\"failed\":").append(r.count(DatasetFileState.FAILED));
    sb.append(",\"bytes\":").append(r.bytes());
    sb.append(",\"fetchedBytes\":").append(r.fetchedBytes());
    sb.append(",\"seconds\":").append(Json.num(round(r.seconds(), 3)));
    sb.append(",\"throughput\":").append(Json.num(round(r.throughput(), 0)));
    sb.append(",\"stopped\":").append(Json.str(r.stopped()));
    sb.append(",\"servers\":[");
    String sep = "";
    for (DatasetReplicaReport p : r.servers()) {
      sb.append(sep).append("{\"server\":").append(Json.str(p.server()));
      sb.append(",\"files\":").append(p.files());
      sb.append(",\"bytes\":").append(p.bytes());
      sb.append(",\"meanRate\":").append(Json.num(p.meanRate()));
      sb.append(",\"predictedRate\":").append(Json.num(round(p.predictedRate(), 0)));
      sb.append(",\"failures\":").append(p.failures());
      sb.append(",\"dropped\":").append(Json.str(p.dropped())).append('}');
      sep = ",";
    }
    sb.append("],\"fileReports\":[");
    sep = "";
    for (DatasetFileReport f : r.files()) {
      Json.str(sb.append(sep).append("{\"path\":"), f.path());
      Json.str(sb.append(",\"status\":"), f.status());
      sb.append(",\"size\":").append(f.size());
      Json.num3(sb.append(",\"seconds\":"), f.seconds());
      Json.str(sb.append(",\"sha256\":"), f.sha256());
      sb.append(",\"servers\":{");
      String s2 = "";
      Map<String, Long> by = f.servers().size() > 1 ? new TreeMap<>(f.servers()) : f.servers();
      for (Map.Entry<String, Long> e : by.entrySet()) {
        Json.str(sb.append(s2), e.getKey()).append(':').append(e.getValue());
        s2 = ",";
      }
      Json.str(sb.append("},\"error\":"), f.error()).append('}');
      sep = ",";
    }
    return sb.append("]}").toString();
  }

  /** Files in the report {@link #warmUp} renders. */
  static final int WARM_UP_FILES = 2000;

  /**
   * Renders a report of {@value #WARM_UP_FILES} made-up files and returns its length, so that the
   * code that renders reports is compiled while a job runs. Rendered once at the job's end, a
   * 1,000-file report ran interpreted, and the JIT compiler started to compile its loops as the
   * process ended: the JVM waits for a compilation in progress before it exits.
   */
  static int warmUp() {
    List<DatasetFileReport> files = new ArrayList<>(WARM_UP_FILES);
    String sha = "0123456789abcdef".repeat(4);
    for (int i = 0; i < WARM_UP_FILES; i++) {
      files.add(
          new DatasetFileReport(
              "warm-up/d" + (i % 16) + "/f" + i + ".dat",
              1000L * i,
              DatasetFileState.FETCHED,
              i / 1000.0,
              sha,
              Map.of("http://warm-up.invalid:80", 1000L * i),
              null));
    }
    return json(new DatasetReport(
            "warm-up", Path.of("."), files, List.of(), Instant.EPOCH, 1.5, 1, 1, null))
        .length();
  }

  /**
   * A summary: one line of totals, one per server, and one per failed file (at most {@code
   * maxFailures}, then how many more).
   */
  public static String text(DatasetReport r, int maxFailures) {
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "%s: %d files, %d fetched, %d verified earlier, %d failed; %s in %.2f s, %s%n",
            r.directory(),
            r.files().size(),
            r.count(DatasetFileState.FETCHED),
            r.count(DatasetFileState.SKIPPED),
            r.count(DatasetFileState.FAILED),
            Reports.bytes(r.fetchedBytes()),
            r.seconds(),
            Reports.rate(r.throughput())));
    sb.append(
        String.format(
            Locale.ROOT,
            "  %-44s %6s %10s %12s %8s%n",
            "server",
            "files",
            "bytes",
            "mean rate",
            "failures"));
    for (DatasetReplicaReport p : r.servers()) {
      sb.append(
          String.format(
              Locale.ROOT,
              "  %-44s %6d %10s %12s %8d%s%n",
              p.server(),
              p.files(),
              Reports.bytes(p.bytes()),
              Reports.rate(p.meanRate()),
              p.failures(),
              p.dropped() == null ? "" : "  dropped: " + p.dropped()));
    }
    int shown = 0;
    for (DatasetFileReport f : r.failures()) {
      if (shown++ == maxFailures) {
        sb.append(
            String.format(
                Locale.ROOT, "  ... and %d more failed%n", r.failures().size() - maxFailures));
        break;
      }
      sb.append("  failed ").append(DatasetNames.shown(f.path())).append(": ").append(f.error());
      sb.append(System.lineSeparator());
    }
    if (r.stopped() != null) {
      sb.append("  stopped: ").append(r.stopped()).append(System.lineSeparator());
    }
    return sb.toString();
  }

  static double round(double v, int digits) {
    double f = Math.pow(10, digits);
    return Math.round(v * f) / f;
  }
}
