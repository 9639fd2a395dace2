package org.braid.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.braid.cli.mirror.Mirror;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code braid get} as a user sees it: run in a pseudo-terminal ({@code script(1)}) it draws a
 * progress line on standard error, never wider than the terminal, with total, rate and ETA, and log
 * lines above it; piped or redirected it draws nothing. The exit codes are the documented ones in
 * both.
 */
@Timeout(120)
class GetTerminalTest {
  static final int COLUMNS = 60;
  @TempDir Path dir;
  Path data;
  byte[] bytes;

  @BeforeEach
  void setUp() throws Exception {
    bytes = new byte[1_500_000];
    new SplittableRandom(5).nextBytes(bytes);
    data = Files.write(dir.resolve("data.bin"), bytes);
  }

  private List<String> braid(String... args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(BraidCli.class.getName());
    cmd.add("get");
    cmd.add("--no-journal");
    cmd.addAll(List.of(args));
    return cmd;
  }

  record Result(int code, String text) {}

  /** Runs the command in a pseudo-terminal; returns its exit code and everything it printed. */
  private Result inTerminal(List<String> cmd) throws Exception {
    Path script = Path.of("/usr/bin/script");
    if (!Files.isExecutable(script)) {
      String msg = "script(1) not found: install util-linux for the pseudo-terminal tests";
      if ("true".equals(System.getenv("CI"))) {
        fail(msg);
      }
      assumeTrue(false, msg);
    }
    StringBuilder line = new StringBuilder();
    for (String c : cmd) {
      line.append('\'').append(c.replace("'", "'\\''")).append("' ");
    }
    ProcessBuilder pb =
        new ProcessBuilder(script.toString(), "-q", "-e", "-c", line.toString(), "/dev/null")
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .redirectErrorStream(true);
    pb.environment().put("COLUMNS", Integer.toString(COLUMNS));
    pb.environment().remove("BRAID_LOG");
    Process p = pb.start();
    byte[] out = p.getInputStream().readAllBytes();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
  }

  @Test
  void terminal_drawsAProgressLineWithinTheWidth_withTotalRateAndEta() throws Exception {
    Path out = dir.resolve("out.bin");
    try (Mirror m = Mirror.builder(data).rate(600_000).start()) {
      Result r = inTerminal(braid(m.uri().toString(), "-o", out.toString()));
      assertEquals(0, r.code(), r.text());
      assertArrayEquals(bytes, Files.readAllBytes(out));
      List<String> frames = frames(r.text());
      assertFalse(frames.isEmpty(), "no progress drawn: " + r.text());
      for (String f : frames) {
        assertTrue(f.length() < COLUMNS, "wider than the terminal: '" + f + "'");
      }
      String any = String.join("\n", frames);
      assertTrue(any.contains("/1.4 MiB"), "total missing: " + any);
      assertTrue(any.contains("/s ETA "), "rate or ETA missing: " + any);
      assertTrue(any.matches("(?s).*ETA \\d+:\\d\\d.*"), "no ETA value: " + any);
    }
  }

  @Test
  void terminal_logLinesGoAboveTheProgressLine() throws Exception {
    Path out = dir.resolve("out.bin");
    try (Mirror good = Mirror.builder(data).rate(500_000).start();
        Mirror flaky =
            Mirror.builder(data)
                .rate(500_000)
                .fault(Mirror.Fault.ERROR_503)
                .faultAfter(200_000)
                .start()) {
      Result r =
          inTerminal(
              braid(good.uri().toString(), flaky.uri().toString(), "-o", out.toString(), "-v"));
      assertTrue(r.code() == 0 || r.code() == 3, r.text());
      assertArrayEquals(bytes, Files.readAllBytes(out));
      boolean sawWarning = false;
      for (String l : r.text().split("\n")) {
        if (!l.contains(" WARN ")) {
          continue;
        }
        sawWarning = true;
        // whatever was on the line before (a progress frame) was cleared first; the terminal
        // ends each line with CR LF
        String t = l.endsWith("\r") ? l.substring(0, l.length() - 1) : l;
        String shown = t.substring(t.lastIndexOf('\r') + 1);
        assertTrue(
            shown.startsWith("\033[K") && Character.isDigit(shown.charAt(3)),
            "log line drawn into the bar: " + l.replace("\r", "\\r").replace("\033", "\\e"));
        assertFalse(shown.contains("ETA"), l);
      }
      assertTrue(sawWarning, "the 503s were not logged with --verbose: " + r.text());
    }
  }

  @Test
  void terminal_failureExitsFourWithOnePlainLine() throws Exception {
    Result r =
        inTerminal(
            braid(
                "http://127.0.0.1:9/data.bin",
                "-o",
                dir.resolve("out.bin").toString(),
                "--connect-timeout",
                "1"));
    assertEquals(4, r.code(), r.text());
    assertEquals(1, r.text().strip().lines().count(), r.text());
    assertTrue(r.text().startsWith("braid: no usable replica: http://127.0.0.1:9/data.bin:"));
    assertFalse(r.text().contains("Exception"), r.text());
  }

  @Test
  void piped_drawsNothingAndExitsWithTheSameCodes() throws Exception {
    Path out = dir.resolve("out.bin");
    Path err = dir.resolve("err.log");
    try (Mirror m = Mirror.builder(data).rate(1_500_000).start()) {
      Process p =
          new ProcessBuilder(braid(m.uri().toString(), "-o", out.toString()))
              .redirectError(err.toFile())
              .redirectOutput(dir.resolve("report.txt").toFile())
              .start();
      assertTrue(p.waitFor(60, TimeUnit.SECONDS));
      assertEquals(0, p.exitValue(), Files.readString(err));
      assertEquals("", Files.readString(err), "nothing on a redirected stderr");
      assertTrue(Files.readString(dir.resolve("report.txt")).contains("sha256"));
      assertArrayEquals(bytes, Files.readAllBytes(out));
      p =
          new ProcessBuilder(braid(m.uri().toString(), "-o", out.toString()))
              .redirectError(err.toFile())
              .start();
      assertTrue(p.waitFor(60, TimeUnit.SECONDS));
      assertEquals(6, p.exitValue(), "exists without --force");
      assertEquals(1, Files.readString(err).lines().count(), Files.readString(err));
    }
  }

  /** The progress frames drawn: the text after each carriage return, without the clear code. */
  static List<String> frames(String text) {
    List<String> frames = new ArrayList<>();
    for (String part : text.split("\r")) {
      String f = part.replace("\033[K", "");
      int nl = f.indexOf('\n');
      if (nl >= 0) {
        f = f.substring(0, nl);
      }
      if (f.startsWith("[")) {
        frames.add(f);
      }
    }
    return frames;
  }
}
