package org.braid.packaging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.braid.cli.mirror.Mirror;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release tarball, unpacked with tar into a temporary directory made read-only, runs the
 * provider from its own files and example configuration, and its launcher writes only into a cache
 * outside the install.
 */
class TarballInstallTest {

  /**
   * A log line: clock time (ISO 8601, milliseconds, offset), level padded to 5, logger, message.
   */
  static final Pattern LOG_LINE =
      Pattern.compile(
          "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}(Z|[+-]\\d\\d:\\d\\d)"
              + " (TRACE|DEBUG|INFO |WARN |ERROR) [\\w.$]+ - .*");

  /** HttpClient 5's wire log: every byte on every connection. */
  static final String WIRE_LOGGER = "org.apache.hc.client5.http.wire";

  @TempDir Path tmp;
  private Path home;

  @BeforeEach
  void unpack() throws Exception {
    Path opt = Files.createDirectories(tmp.resolve("opt"));
    Install.run(
        List.of(
            Install.tool("tar", "tar").toString(),
            "-xzf",
            Install.built("braid-*.tar.gz").toString(),
            "-C",
            opt.toString()));
    try (Stream<Path> s = Files.list(opt)) {
      List<Path> tops = s.toList();
      assertEquals(1, tops.size(), "one top directory in the tarball: " + tops);
      home = tops.get(0);
    }
    for (String f :
        List.of(
            "bin/braid",
            "lib/braid.jar",
            "lib/launcher.sh",
            "etc/provider.yaml",
            "etc/logback.xml",
            "systemd/braid-provider.service",
            "doc/provider.md",
            "doc/README.md")) {
      assertTrue(Files.isRegularFile(home.resolve(f)), "tarball has " + f);
    }
    for (Map.Entry<String, byte[]> f : Install.ldapSchema().entrySet()) {
      assertArrayEquals(
          f.getValue(), Files.readAllBytes(home.resolve("ldap").resolve(f.getKey())), f.getKey());
    }
    assertTrue(Files.isExecutable(home.resolve("bin/braid")), "bin/braid is executable");
    Install.chmodReadOnly(home);
  }

  @AfterEach
  void writable() throws IOException {
    Install.chmodWritable(tmp);
  }

  @Test
  void readOnlyInstall_isReallyReadOnlyToTheCommandsRunInIt() throws Exception {
    Process p =
        new ProcessBuilder(
                Install.readOnly(
                    home,
                    List.of("/bin/sh", "-c", "touch \"$1/lib/probe\"", "sh", home.toString())))
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(30, TimeUnit.SECONDS));
    assertNotEquals(0, p.exitValue(), "touch inside the install succeeded: " + out);
    // touch itself failed, for the reason expected (not the mount that sets it up)
    String reason = Install.isRoot() ? "Read-only file system" : "Permission denied";
    assertTrue(out.contains("touch: cannot touch") && out.contains(reason), out);
    assertFalse(Files.exists(home.resolve("lib/probe")));
  }

  @Test
  void provider_fromReadOnlyInstall_servesAdsOfItsLog_logsClockTime_writesNothingInside()
      throws Exception {
    Path work = Files.createDirectories(tmp.resolve("work"));
    Path cache = tmp.resolve("var-cache-braid");
    Path config = InstalledProvider.configFrom(home.resolve("etc/provider.yaml"), work);
    Map<String, String> before = Install.snapshot(home);
    List<String> cmd =
        List.of(home.resolve("bin/braid").toString(), "provider", "serve", "--config", "" + config);
    // as the unit runs it: BRAID_LOG=info, the shipped logback.xml, systemd's CacheDirectory
    Map<String, String> env =
        Map.of(
            "BRAID_LOG", "info",
            "BRAID_LOG_CONFIG", home.resolve("etc/logback.xml").toString(),
            "CACHE_DIRECTORY", cache.toString());
    List<Map<String, Object>> ads;
    String stderr;
    try (InstalledProvider p = InstalledProvider.start(Install.readOnly(home, cmd), env, work)) {
      ads = p.adsOnceImported();
      assertTrue(p.stop(), "stops on SIGTERM:\n" + p.stdout() + p.stderr());
      stderr = p.stderr();
    }
    assertEquals(1, ads.size(), ads.toString());
    Map<String, Object> ad = ads.get(0);
    assertEquals(InstalledProvider.HOSTNAME, ad.get("hostname"));
    assertEquals("127.0.0.1", ad.get("peer"));
    assertEquals(1L, ad.get("RDTransfers"));
    assertLogLines(stderr, "INFO  org.braid.provider.");
    assertEquals(before, Install.snapshot(home), "nothing written inside the install");
    assertTrue(Files.isDirectory(cache), "the class-data archive goes to the cache:\n" + stderr);
    try (Stream<Path> s = Files.list(cache)) {
      assertTrue(s.anyMatch(f -> f.toString().endsWith(".jsa")), "an archive in " + cache);
    }
  }

  /**
   * Every line of {@code stderr} is a log line or continues one (blank or indented: Quartz logs a
   * multi-line message), and one containing {@code expected} is among them.
   */
  static void assertLogLines(String stderr, String expected) {
    List<String> other = new ArrayList<>();
    boolean found = false;
    for (String line : stderr.lines().toList()) {
      boolean continues = line.isBlank() || Character.isWhitespace(line.charAt(0));
      if (!LOG_LINE.matcher(line).matches() && !continues) {
        other.add(line);
      }
      found |= line.contains(expected) && LOG_LINE.matcher(line).matches();
    }
    assertEquals(List.of(), other, "lines on stderr that are not log lines:\n" + stderr);
    assertTrue(found, "no log line with '" + expected + "':\n" + stderr);
  }

  @Test
  void launcher_withoutAWritableCache_stillRunsAndSaysNothing() throws Exception {
    Path roHome = Files.createDirectories(tmp.resolve("home"));
    Install.chmodReadOnly(roHome);
    ProcessBuilder pb =
        new ProcessBuilder(
            Install.readOnly(home, List.of(home.resolve("bin/braid").toString(), "--version")));
    pb.environment().remove("XDG_CACHE_HOME");
    pb.environment().remove("CACHE_DIRECTORY");
    // a read-only home: ~/.cache/braid cannot be made (root would ignore the permission, so the
    // cache is pointed at a directory inside the read-only install instead)
    if (Install.isRoot()) {
      pb.environment().put("XDG_CACHE_HOME", home.resolve("lib/cache").toString());
    } else {
      pb.environment().put("HOME", roHome.toString());
    }
    Process p = pb.start();
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(2, TimeUnit.MINUTES));
    assertEquals(0, p.exitValue(), err);
    assertTrue(out.startsWith("braid "), out);
    assertEquals("", err);
  }

  /**
   * The installed launcher's archive holds every class a get of one file loads, so the JVM never
   * opens the jar (reading its central directory of about 10,000 entries costs 10-25 ms of a
   * start): neither the launcher (no -jar), nor the command line (its model is a class), nor a
   * class look-up that misses the archive.
   */
  @Test
  void launcher_getOfOneFile_takesEveryClassFromTheArchive_neverOpensTheJar() throws Exception {
    Path cache = tmp.resolve("cache");
    Path file = Files.write(tmp.resolve("f.bin"), new byte[100_000]);
    Path classes = tmp.resolve("classes.log");
    List<String> cmd =
        List.of(
            home.resolve("bin/braid").toString(),
            "get",
            "--no-journal",
            "-o",
            tmp.resolve("out.bin").toString(),
            file.toString());
    for (int run = 0; run < 2; run++) { // the first records the archive
      ProcessBuilder pb = new ProcessBuilder(Install.readOnly(home, cmd));
      pb.environment().put("XDG_CACHE_HOME", cache.toString());
      pb.environment().remove("CACHE_DIRECTORY");
      pb.environment().remove("BRAID_CDS");
      pb.environment().put("BRAID_JAVA_OPTS", "-Xlog:class+load=info:file=" + classes);
      pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
      pb.redirectError(tmp.resolve("get.err").toFile());
      Files.deleteIfExists(tmp.resolve("out.bin"));
      Process p = pb.start();
      assertTrue(p.waitFor(2, TimeUnit.MINUTES));
      assertEquals(0, p.exitValue(), Files.readString(tmp.resolve("get.err")));
    }
    List<String> lines = Files.readAllLines(classes);
    assertTrue(lines.size() > 1000, "a class-load log: " + lines.size() + " lines");
    List<String> fromJar =
        lines.stream()
            .filter(l -> l.contains("source: file:") || l.contains("source: jar:"))
            .toList();
    assertEquals(List.of(), fromJar, "classes not from the archive");
    List<String> opened =
        lines.stream().filter(l -> l.contains(" java.util.zip.ZipFile$Source ")).toList();
    assertEquals(List.of(), opened, "the jar was opened");
  }

  @Test
  void get_debugLogHasNoWireLines_unlessBraidLogWireAsksForThem() throws Exception {
    Path file = tmp.resolve("f.bin");
    byte[] data = new byte[2_000_000];
    new Random(19).nextBytes(data);
    Files.write(file, data);
    try (Mirror m = Mirror.builder(file).start()) {
      String debug = get(m.uri(), Map.of("BRAID_LOG", "debug"));
      assertLogLines(debug, "DEBUG org.braid.coalloc.");
      assertFalse(debug.contains(WIRE_LOGGER), debug);
      String wire = get(m.uri(), Map.of("BRAID_LOG", "info", "BRAID_LOG_WIRE", "1"));
      assertLogLines(wire, "DEBUG " + WIRE_LOGGER + " - http-outgoing-");
    }
  }

  /** Runs the installed braid get of {@code uri} with {@code env}; returns its stderr. */
  private String get(URI uri, Map<String, String> env) throws Exception {
    Path out = tmp.resolve("out-" + env.size() + ".bin");
    ProcessBuilder pb =
        new ProcessBuilder(
            Install.readOnly(
                home,
                List.of(
                    home.resolve("bin/braid").toString(),
                    "get",
                    "--no-journal",
                    "-o",
                    out.toString(),
                    uri.toString())));
    pb.environment().putAll(env);
    pb.environment().put("BRAID_CDS", "0");
    pb.redirectOutput(tmp.resolve("get.out").toFile());
    pb.redirectError(tmp.resolve("get.err").toFile());
    Process p = pb.start();
    assertTrue(p.waitFor(2, TimeUnit.MINUTES));
    String err = Files.readString(tmp.resolve("get.err"));
    assertEquals(0, p.exitValue(), err);
    assertEquals(Files.size(tmp.resolve("f.bin")), Files.size(out));
    return err;
  }
}
