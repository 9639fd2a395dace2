package org.braid.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.braid.testkit.RealComponent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs {@code src/test/bench/bench.sh --smoke}: two mirror namespaces behind 40 Mbit/s tbf links,
 * each 20 ms away (the delay line of {@code src/test/bench/delayline}), a 5 MB file fetched with
 * curl from one mirror and with {@code braid get} from both. Needs root, iproute2, iptables, gcc
 * and libnetfilter-queue-dev; under CI=true it fails when one is missing, elsewhere it skips.
 */
class BenchSmokeTest {
  private static final Path REPO = Path.of("../..").toAbsolutePath().normalize();
  private static final Path BENCH = REPO.resolve("src/test/bench/bench.sh");
  private static final Path JAR = REPO.resolve("cli/target/braid.jar");
  private static final Path NFQ_HEADER =
      Path.of("/usr/include/libnetfilter_queue/libnetfilter_queue.h");

  @TempDir Path dir;

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void smoke_twoShapedDistantMirrors_bothContendersVerifiedShapedAndDelayed() throws Exception {
    requireEnvironment();
    Path out = dir.resolve("results");
    try {
      Process p =
          new ProcessBuilder("bash", BENCH.toString(), "--smoke", "--out", out.toString())
              .redirectErrorStream(true)
              .redirectOutput(dir.resolve("bench.log").toFile())
              .start();
      p.getOutputStream().close();
      if (!p.waitFor(120, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        fail("bench.sh --smoke did not finish in 120 s:\n" + log());
      }
      assertEquals(0, p.exitValue(), "bench.sh --smoke exit code; output:\n" + log());
      List<String> lines = Files.readAllLines(out.resolve("results.csv"));
      assertEquals(3, lines.size(), "header and two runs:\n" + String.join("\n", lines));
      Map<String, String[]> runs =
          lines.stream()
              .skip(1)
              .map(l -> l.split(",", -1))
              .collect(Collectors.toMap(f -> f[3], f -> f));
      for (String contender : List.of("curl", "braid-adaptive")) {
        String[] f = runs.get(contender);
        assertTrue(f != null, "no row for " + contender + ":\n" + String.join("\n", lines));
        assertEquals("0", f[6], contender + " exit code");
        assertEquals("1", f[7], contender + " output byte-identical to the served file");
        double throughput = Double.parseDouble(f[2]) / Double.parseDouble(f[9]);
        double bound = Double.parseDouble(f[10]);
        // The links are shaped: nothing can beat the payload capacity of the two 40 Mbit/s links.
        assertTrue(
            throughput <= bound * 1.05,
            contender
                + " ran at "
                + throughput
                + " B/s, above the bound "
                + bound
                + ": tc not shaping?");
      }
      // Both runs were at 20 ms from both mirrors (rtt_ms, after the 16 columns of issue 7).
      for (String[] f : runs.values()) {
        assertEquals("20/20", f[16], f[3] + " round-trip times");
      }
      assertRoundTrips(out.resolve("rtt-check.csv"));
      // curl uses one 40 Mbit/s link: at most half the bound.
      String[] curl = runs.get("curl");
      assertTrue(
          Double.parseDouble(curl[2]) / Double.parseDouble(curl[9])
              <= Double.parseDouble(curl[10]) / 2 * 1.05,
          "curl faster than its one shaped link");
      assertTrue(leftovers().isEmpty(), "namespaces left behind: " + leftovers());
    } finally {
      new ProcessBuilder("bash", BENCH.toString(), "--cleanup")
          .inheritIO()
          .start()
          .waitFor(30, TimeUnit.SECONDS);
    }
  }

  /**
   * The delay line adds the configured 20 ms: curl's connect time (one round trip) is at least 20
   * ms, where the bare veth pair takes well under 1 ms, and not absurdly more (a loaded 2-core
   * machine wakes processes late by a few ms at times).
   */
  private static void assertRoundTrips(Path checks) throws IOException {
    List<String> lines = Files.readAllLines(checks);
    assertEquals(3, lines.size(), "header and one check per mirror:\n" + String.join("\n", lines));
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split(",", -1);
      assertEquals("20", f[3], "configured delay: " + line);
      double ms = Double.parseDouble(f[4]);
      assertTrue(
          ms >= 19.9 && ms < 60, "curl connect time " + ms + " ms, configured 20 ms: " + line);
    }
  }

  private String log() throws IOException {
    return Files.readString(dir.resolve("bench.log"));
  }

  private static String leftovers() throws Exception {
    Process p = new ProcessBuilder("ip", "netns", "list").redirectErrorStream(true).start();
    String s = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor(10, TimeUnit.SECONDS);
    return s.lines().filter(l -> l.startsWith("braidb-")).collect(Collectors.joining(", "));
  }

  /**
   * Root, iproute2 able to create a namespace, curl, jq, openssl, nginx, the delay line's build and
   * run tools (gcc, libnetfilter-queue-dev, iptables), and the built braid.jar.
   */
  private static void requireEnvironment() throws Exception {
    if (!"root".equals(System.getProperty("user.name"))) {
      RealComponent.unavailable(
          "benchmark smoke test needs root (network namespaces, tc)", "run the tests as root");
    }
    if (!Files.isRegularFile(JAR)) {
      RealComponent.unavailable(
          "benchmark smoke test needs " + JAR, "./mvnw -B -q -pl cli -am package");
    }
    for (String tool :
        List.of("ip", "tc", "curl", "jq", "openssl", "/usr/sbin/nginx", "gcc", "iptables")) {
      if (!onPath(tool)) {
        RealComponent.unavailable(
            "benchmark smoke test needs " + tool, "bash .ci/install (as root)");
      }
    }
    if (!Files.isRegularFile(NFQ_HEADER)) {
      RealComponent.unavailable(
          "benchmark smoke test needs libnetfilter-queue-dev for the delay line",
          "bash .ci/install (as root)");
    }
    if (!canCreateNamespace()) {
      RealComponent.unavailable(
          "benchmark smoke test cannot create a network namespace (ip netns add failed)",
          "iproute2 (bash .ci/install), as root, on a kernel with network namespaces");
    }
  }

  private static boolean onPath(String tool) throws Exception {
    if (tool.startsWith("/")) {
      return Files.isExecutable(Path.of(tool));
    }
    Process p =
        new ProcessBuilder("sh", "-c", "command -v " + tool).redirectErrorStream(true).start();
    return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
  }

  private static boolean canCreateNamespace() throws Exception {
    String name = "braidb-probe" + ProcessHandle.current().pid();
    Process add = new ProcessBuilder("ip", "netns", "add", name).redirectErrorStream(true).start();
    boolean ok = add.waitFor(10, TimeUnit.SECONDS) && add.exitValue() == 0;
    new ProcessBuilder("ip", "netns", "del", name)
        .redirectErrorStream(true)
        .start()
        .waitFor(10, TimeUnit.SECONDS);
    return ok;
  }
}
