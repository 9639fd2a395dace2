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

  /** Draws the timeline; see {@link Reports#writePlot}. */
  static void write(DownloadReport r, Path png) throws IOException {
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
              Reports.bytes(r.bytes()),
              r.seconds(),
              Reports.rate(r.throughput()),
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
        String label = Reports.abbreviate(r.replicas().get(rep).uri().toString(), 34) + " #" + conn;
        g.drawString(label, 8, y + rowH / 2 + 4);
        for (BlockEvent e : r.events()) {
          if (e.replica() != rep || e.connection() != conn) {
            continue;
          }
          int x0 = left + (int) (e.startNanos() / 1e9 * scale);
          int x1 =
              left + (int) Math.max(e.endNanos() / 1e9 * scale, e.startNanos() / 1e9 * scale + 1);
          Color c = COLORS[rep % COLORS.length];
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
}
