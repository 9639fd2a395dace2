package org.braid.coalloc;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Renders a {@link DownloadReport}: JSON, a per-block trace, a PNG timeline. */
public final class Reports {
  private Reports() {}

  /**
   * The report as one JSON object: {@code bytes}, {@code seconds}, {@code throughput}, {@code
   * sha256}, and per replica {@code url}, {@code bytes}, {@code blocks}, {@code meanRate}, {@code
   * idleSeconds}, among others.
   */
  public static String json(DownloadReport r) {
    StringBuilder sb = new StringBuilder("{");
    sb.append("\"id\":").append(Json.str(r.id()));
    sb.append(",\"output\":").append(Json.str(r.output().toString()));
    sb.append(",\"scheme\":").append(Json.str(r.scheme()));
    sb.append(",\"bytes\":").append(r.bytes());
    sb.append(",\"resumedBytes\":").append(r.resumedBytes());
    sb.append(",\"seconds\":").append(Json.num(round(r.seconds(), 3)));
    sb.append(",\"throughput\":").append(Json.num(round(r.throughput(), 0)));
    sb.append(",\"sha256\":").append(Json.str(r.sha256()));
    sb.append(",\"digests\":{");
    boolean first = true;
    for (Map.Entry<String, String> e : new java.util.TreeMap<>(r.digests()).entrySet()) {
      sb.append(first ? "" : ",").append(Json.str(e.getKey())).append(':');
      sb.append(Json.str(e.getValue()));
      first = false;
    }
    sb.append("},\"replicas\":[");
    first = true;
    for (ReplicaReport p : r.replicas()) {
      sb.append(first ? "" : ",").append('{');
      sb.append("\"url\":").append(Json.str(p.uri().toString()));
      sb.append(",\"bytes\":").append(p.bytes());
      sb.append(",\"receivedBytes\":").append(p.receivedBytes());
      sb.append(",\"blocks\":").append(p.blocks());
      sb.append(",\"meanRate\":").append(Json.num(round(p.meanRate(), 0)));
      sb.append(",\"idleSeconds\":").append(Json.num(round(p.idleSeconds(), 3)));
      sb.append(",\"failures\":").append(p.failures());
      sb.append(",\"dropped\":").append(Json.str(p.dropped()));
      sb.append('}');
      first = false;
    }
    return sb.append("]}").toString();
  }

  /** A human-readable table of the report, several lines. */
  public static String text(DownloadReport r) {
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "%s: %s in %.2f s, %s (scheme %s%s)%n",
            r.output(),
            bytes(r.bytes()),
            r.seconds(),
            rate(r.throughput()),
            r.scheme(),
            r.resumedBytes() > 0 ? ", resumed " + bytes(r.resumedBytes()) : ""));
    sb.append(String.format(Locale.ROOT, "sha256 %s%n", r.sha256()));
    sb.append(
        String.format(
            Locale.ROOT,
            "  %-44s %10s %6s %12s %8s%n",
            "replica",
            "bytes",
            "blocks",
            "mean rate",
            "idle s"));
    for (ReplicaReport p : r.replicas()) {
      sb.append(
          String.format(
              Locale.ROOT,
              "  %-44s %10s %6d %12s %8.2f%s%n",
              abbreviate(p.uri().toString(), 44),
              bytes(p.bytes()),
              p.blocks(),
              rate(p.meanRate()),
              p.idleSeconds(),
              p.dropped() == null ? "" : "  dropped: " + p.dropped()));
    }
    return sb.toString();
  }

  /**
   * Writes every request: replica, connection, range, bytes written, start and end seconds, result.
   * CSV when the name ends in {@code .csv}, else one JSON object per line.
   *
   * @throws IOException if the file cannot be written
   */
  public static void writeTrace(DownloadReport r, Path file) throws IOException {
    boolean csv = file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".csv");
    try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      if (csv) {
        w.write("replica,url,connection,offset,end,written,start_s,end_s,result\n");
      }
      for (BlockEvent e : sorted(r.events())) {
        String url = r.replicas().get(e.replica()).uri().toString();
        if (csv) {
          w.write(
              String.format(
                  Locale.ROOT,
                  "%d,%s,%d,%d,%d,%d,%.6f,%.6f,%s%n",
                  e.replica(),
                  csvField(url),
                  e.connection(),
                  e.offset(),
                  e.endOffset(),
                  e.written(),
                  e.startNanos() / 1e9,
                  e.endNanos() / 1e9,
                  csvField(e.result())));
        } else {
          w.write(
              String.format(
                  Locale.ROOT,
                  "{\"replica\":%d,\"url\":%s,\"connection\":%d,\"offset\":%d,\"end\":%d,"
                      + "\"written\":%d,\"start\":%.6f,\"endTime\":%.6f,\"result\":%s}%n",
                  e.replica(),
                  Json.str(url),
                  e.connection(),
                  e.offset(),
                  e.endOffset(),
                  e.written(),
                  e.startNanos() / 1e9,
                  e.endNanos() / 1e9,
                  Json.str(e.result())));
        }
      }
    }
  }

  /**
   * Draws a timeline PNG: one row per connection, one bar per request coloured by replica (outlined
   * red when it failed, pale when another replica delivered its bytes first).
   *
   * @throws IOException if the file cannot be written
   */
  public static void writePlot(DownloadReport r, Path png) throws IOException {
    TimelinePlot.write(r, png);
  }

  private static List<BlockEvent> sorted(List<BlockEvent> events) {
    List<BlockEvent> l = new ArrayList<>(events);
    l.sort((a, b) -> Long.compare(a.startNanos(), b.startNanos()));
    return l;
  }

  private static String csvField(String s) {
    if (s.contains(",") || s.contains("\"") || s.contains("\n")) {
      return "\"" + s.replace("\"", "\"\"") + "\"";
    }
    return s;
  }

  private static double round(double v, int digits) {
    double f = Math.pow(10, digits);
    return Math.round(v * f) / f;
  }

  static String abbreviate(String s, int n) {
    return s.length() <= n ? s : "..." + s.substring(s.length() - n + 3);
  }

  /** Bytes with a binary unit, e.g. {@code 64.0 MiB}. */
  public static String bytes(double b) {
    String[] u = {"B", "KiB", "MiB", "GiB", "TiB"};
    int i = 0;
    while (b >= 1024 && i < u.length - 1) {
      b /= 1024;
      i++;
    }
    return i == 0
        ? String.format(Locale.ROOT, "%.0f B", b)
        : String.format(Locale.ROOT, "%.1f %s", b, u[i]);
  }

  /** A rate in megabits per second, e.g. {@code 80.0 Mbit/s}. */
  public static String rate(double bytesPerSecond) {
    return String.format(Locale.ROOT, "%.1f Mbit/s", bytesPerSecond * 8 / 1e6);
  }
}
