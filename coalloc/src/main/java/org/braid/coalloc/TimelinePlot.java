package org.braid.coalloc;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import javax.imageio.ImageIO;

/**
 * The PNG timeline of {@link Reports#writePlot}, in a class of its own so that the JSON and text
 * reports never load AWT.
 */
final class TimelinePlot {
  /** Replica colours. */
  private static final Color[] COLORS = {
    new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0xd62728),
    new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f)
  };

  private TimelinePlot() {}

  private static final int LEFT = 260;
  private static final int RIGHT = 30;
  private static final int TOP = 40;
  private static final int ROW_HEIGHT = 28;
  private static final int WIDTH = 1100;

  /** One line of the plot: a connection of a replica. */
  private record Row(int replica, int connection) {}

  /** Draws the timeline; see {@link Reports#writePlot}. */
  static void write(DownloadReport r, Path png) throws IOException {
    System.setProperty("java.awt.headless", "true");
    TreeSet<Row> sorted =
        new TreeSet<>(Comparator.comparingInt(Row::replica).thenComparingInt(Row::connection));
    for (BlockEvent e : r.events()) {
      sorted.add(new Row(e.replica(), e.connection()));
    }
    List<Row> rows = new ArrayList<>(sorted);
    int height = TOP + Math.max(1, rows.size()) * ROW_HEIGHT + 50;
    double maxT = Math.max(r.seconds(), 1e-3);
    for (BlockEvent e : r.events()) {
      maxT = Math.max(maxT, e.endNanos() / 1e9);
    }
    BufferedImage img = new BufferedImage(WIDTH, height, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = img.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, WIDTH, height);
      g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
      g.setColor(Color.BLACK);
      g.drawString(title(r), 10, 20);
      double scale = (WIDTH - LEFT - RIGHT) / maxT;
      for (int i = 0; i < rows.size(); i++) {
        drawRow(g, r, rows.get(i), TOP + i * ROW_HEIGHT, scale);
      }
      drawAxis(g, TOP + rows.size() * ROW_HEIGHT + 10, maxT, scale);
    } finally {
      g.dispose();
    }
    if (!ImageIO.write(img, "png", png.toFile())) {
      throw new IOException("no PNG writer available");
    }
  }

  private static String title(DownloadReport r) {
    return String.format(
        Locale.ROOT,
        "%s: %s in %.2f s (%s), scheme %s",
        r.output().getFileName(),
        Reports.bytes(r.bytes()),
        r.seconds(),
        Reports.rate(r.throughput()),
        r.scheme());
  }

  /** The row's label and a bar per request, at height {@code y}. */
  private static void drawRow(Graphics2D g, DownloadReport r, Row row, int y, double scale) {
    int rep = row.replica();
    g.setColor(Color.BLACK);
    String label =
        Reports.abbreviate(r.replicas().get(rep).uri().toString(), 34) + " #" + row.connection();
    g.drawString(label, 8, y + ROW_HEIGHT / 2 + 4);
    for (BlockEvent e : r.events()) {
      if (e.replica() != rep || e.connection() != row.connection()) {
        continue;
      }
      int x0 = LEFT + (int) (e.startNanos() / 1e9 * scale);
      int x1 = LEFT + (int) Math.max(e.endNanos() / 1e9 * scale, e.startNanos() / 1e9 * scale + 1);
      Color c = COLORS[rep % COLORS.length];
      if (e.written() == 0) {
        c = new Color(c.getRed(), c.getGreen(), c.getBlue(), 70);
      }
      g.setColor(c);
      g.fillRect(x0, y + 4, x1 - x0, ROW_HEIGHT - 8);
      g.setStroke(new BasicStroke(1));
      g.setColor(e.result().startsWith("error") ? Color.RED : Color.WHITE);
      g.drawRect(x0, y + 4, x1 - x0, ROW_HEIGHT - 8);
    }
  }

  /** The time axis at height {@code axisY}, ticks at round steps up to {@code maxT} seconds. */
  private static void drawAxis(Graphics2D g, int axisY, double maxT, double scale) {
    g.setColor(Color.BLACK);
    g.drawLine(LEFT, axisY, WIDTH - RIGHT, axisY);
    double step = niceStep(maxT / 10);
    for (double t = 0; t <= maxT + 1e-9; t += step) {
      int x = LEFT + (int) (t * scale);
      g.drawLine(x, axisY, x, axisY + 5);
      g.drawString(String.format(Locale.ROOT, "%.3g", t), x - 8, axisY + 18);
    }
    g.drawString("seconds", WIDTH - RIGHT - 50, axisY + 34);
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
}
