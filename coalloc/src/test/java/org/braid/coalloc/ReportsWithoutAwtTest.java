package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The JSON and text reports load no AWT class (AWT's start-up cost belongs to {@code --plot} only),
 * checked in a fresh JVM with the class-loading log.
 */
class ReportsWithoutAwtTest {

  /** Run in the child JVM: prints both reports. */
  public static void main(String[] args) {
    DownloadReport r = ReportsTest.report(Path.of("o"));
    System.out.println(Reports.json(r).length() + Reports.text(r).length());
  }

  @Test
  void jsonAndText_loadNoAwtClass() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process p =
        new ProcessBuilder(
                List.of(
                    java.toString(),
                    "-Xshare:off",
                    "-Xlog:class+load=info:stdout",
                    "-cp",
                    System.getProperty("java.class.path"),
                    ReportsWithoutAwtTest.class.getName()))
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), out);
    assertTrue(out.contains("org.braid.coalloc.Reports "), "the reports ran");
    assertFalse(out.contains("java.awt."), "an AWT class was loaded");
  }
}
