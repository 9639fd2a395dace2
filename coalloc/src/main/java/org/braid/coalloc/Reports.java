package org.braid.coalloc;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import javax.imageio.ImageIO;

/** Renders a {@link DownloadReport}: JSON, a per-block trace, a PNG timeline. */
public final class Reports {
  /** Replica colours of the timeline; a holder, so that JSON and text reports never load AWT. */
  private static final class Palette {
    static final Color[] COLORS = {
      new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0xd62728),
      new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f)
    };
  }

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
    System.setProperty("java.awt.headless", "true");
    TreeSet<Long> rows = new TreeSet<>();
    for (BlockEvent e : r.events()) {
      rows.add(((long) e.replica() << 16) | e.connection());
    }
    List<Long> rowList = new ArrayList<>(rows);
    int left = 260;
    int right = 30;
    int top = 40;
    int rowH = 28;
    int width = 1100;
    int height = top + Math.max(1, rowList.size()) * rowH + 50;
    double maxT = Math.max(r.seconds(), 1e-3);
    for (BlockEvent e : r.events()) {
      maxT = Math.max(maxT, e.endNanos() / 1e9);
    }
    BufferedImage img = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = img.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, width, height);
      g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
      g.setColor(Color.BLACK);
      g.drawString(
          String.format(
              Locale.ROOT,
              "%s: %s in %.2f s (%s), scheme %s",
              r.output().getFileName(),
              bytes(r.bytes()),
              r.seconds(),
              rate(r.throughput()),
              r.scheme()),
          10,
          20);
      double scale = (width - left - right) / maxT;
      for (int i = 0; i < rowList.size(); i++) {
        long key = rowList.get(i);
        int rep = (int) (key >> 16);
        int conn = (int) (key & 0xffff);
        int y = top + i * rowH;
        g.setColor(Color.BLACK);
        String label = abbreviate(r.replicas().get(rep).uri().toString(), 34) + " #" + conn;
        g.drawString(label, 8, y + rowH / 2 + 4);
        for (BlockEvent e : r.events()) {
          if (e.replica() != rep || e.connection() != conn) {
            continue;
          }
          int x0 = left + (int) (e.startNanos() / 1e9 * scale);
          int x1 =
              left + (int) Math.max(e.endNanos() / 1e9 * scale, e.startNanos() / 1e9 * scale + 1);
          Color c = Palette.COLORS[rep % Palette.COLORS.length];
          if (e.written() == 0) {
            c = new Color(c.getRed(), c.getGreen(), c.getBlue(), 70);
          }
          g.setColor(c);
          g.fillRect(x0, y + 4, x1 - x0, rowH - 8);
          g.setStroke(new BasicStroke(1));
          g.setColor(e.result().startsWith("error") ? Color.RED : Color.WHITE);
          g.drawRect(x0, y + 4, x1 - x0, rowH - 8);
        }
      }
      int axisY = top + rowList.size() * rowH + 10;
      g.setColor(Color.BLACK);
      g.drawLine(left, axisY, width - right, axisY);
      double step = niceStep(maxT / 10);
      for (double t = 0; t <= maxT + 1e-9; t += step) {
        int x = left + (int) (t * scale);
        g.drawLine(x, axisY, x, axisY + 5);
        g.drawString(String.format(Locale.ROOT, "%.3g", t), x - 8, axisY + 18);
      }
      g.drawString("seconds", width - right - 50, axisY + 34);
    } finally {
      g.dispose();
    }
    if (!ImageIO.write(img, "png", png.toFile())) {
      throw new IOException("no PNG writer available");
    }
  }

  private static double niceStep(double raw) {
    double p = Math.pow(10, Math.floor(Math.log10(raw)));
    for (double m : new double[] {1, 2, 5, 10}) {
      if (m * p >= raw) {
        return m * p;
      }
    }
    return 10 * p;
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

  private static String abbreviate(String s, int n) {
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
