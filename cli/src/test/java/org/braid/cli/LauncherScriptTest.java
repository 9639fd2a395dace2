package org.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's class-data archive (src/dist/lib/launcher.sh, {@code braid_cds}) with a fake java
 * that logs what it is asked to do: recorded once, then used without starting a process; recorded
 * again when the jar or java changes or the jar marks it stale; a failure not retried.
 */
class LauncherScriptTest {
  private static final Path LAUNCHER = Path.of("src/dist/lib/launcher.sh").toAbsolutePath();

  /**
   * Logs "record" for a class list (with " BRAID_LOG=..." when that is set), "dump" for an archive,
   * else "run ARGS"; stat logs "stat".
   */
  private static final String FAKE_JAVA =
      """
      #!/usr/bin/env bash
      for a in "$@"; do
        case $a in
          -XX:DumpLoadedClassList=*)
            echo java/lang/Object >"${a#*=}"; echo "record${BRAID_LOG:+ BRAID_LOG=$BRAID_LOG}" >>"$FAKE_LOG"
            exit 0 ;;
          -Xshare:dump) dump=1 ;;
          -XX:SharedArchiveFile=*) archive=${a#*=} ;;
        esac
      done
      if [ -n "${dump:-}" ]; then
        [ -z "${FAKE_DUMP_FAILS:-}" ] || exit 1
        echo archive >"$archive"; echo dump >>"$FAKE_LOG"; exit 0
      fi
      echo "run $*" >>"$FAKE_LOG"
      """;

  private static final String FAKE_STAT =
      """
      #!/usr/bin/env bash
      echo stat >>"$FAKE_LOG"
      exec /usr/bin/env -u FAKE_LOG PATH=/usr/bin:/bin stat "$@"
      """;

  @TempDir Path dir;
  private Path jar;
  private Path java;
  private Path cache;
  private Path log;
  private String stderr;

  @BeforeEach
  void fakes() throws IOException {
    jar = Files.writeString(dir.resolve("braid.jar"), "jar");
    Path bin = Files.createDirectories(dir.resolve("jdk/bin"));
    java = executable(bin.resolve("java"), FAKE_JAVA);
    executable(Files.createDirectories(dir.resolve("tools")).resolve("stat"), FAKE_STAT);
    cache = dir.resolve("cache");
    log = dir.resolve("log");
    // the jar and java are older than anything the launcher writes
    ago(jar, 60);
    ago(java, 60);
  }

  private static Path executable(Path p, String text) throws IOException {
    Files.writeString(p, text);
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    return p;
  }

  /** Runs braid_exec of the jar with {@code --version}; returns the log lines of this run. */
  private List<String> launch(String... env) throws Exception {
    long before = Files.exists(log) ? Files.readAllLines(log).size() : 0;
    ProcessBuilder pb =
        new ProcessBuilder(
            "bash",
            "-c",
            ". \"$1\"; shift; braid_exec \"$@\"",
            "bash",
            LAUNCHER.toString(),
            jar.toString(),
            cache.toString(),
            "--version");
    pb.environment().put("JAVA_HOME", dir.resolve("jdk").toString());
    pb.environment().put("FAKE_LOG", log.toString());
    pb.environment().put("PATH", dir.resolve("tools") + ":" + System.getenv("PATH"));
    pb.environment().remove("BRAID_JAVA_OPTS");
    pb.environment().remove("BRAID_CDS");
    for (int i = 0; i < env.length; i += 2) {
      pb.environment().put(env[i], env[i + 1]);
    }
    Process p = pb.redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    stderr = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), stderr);
    List<String> all = Files.readAllLines(log);
    List<String> run = new ArrayList<>(all.subList((int) before, all.size()));
    // the training runs' class lists: not what these tests look at
    run.removeIf(l -> l.startsWith("record"));
    return run;
  }

  private Path archive() {
    return cache.resolve(jar.toString().replaceAll("[^A-Za-z0-9._-]", "_") + ".jsa");
  }

  private String withArchive() {
    Path a = archive();
    return "run -XX:-UsePerfData -XX:SharedArchiveFile="
        + a
        + " -Xlog:cds=off -Xlog:cds+dynamic=off -Dbraid.cds="
        + a
        + " -cp "
        + jar
        + " org.braid.cli.BraidCli --version";
  }

  private String withoutArchive() {
    return "run -XX:-UsePerfData -cp " + jar + " org.braid.cli.BraidCli --version";
  }

  @Test
  void recordedOnce_thenUsedWithoutStartingAProcess() throws Exception {
    assertEquals(List.of("stat", "dump", withArchive()), launch());
    assertEquals(List.of(withArchive()), launch());
    assertEquals(List.of(withArchive()), launch());
    assertEquals("", stderr);
  }

  /**
   * One training run logs at debug (to /dev/null), so that the classes of a log line are archived:
   * without them the first line of BRAID_LOG=debug opened the jar in the middle of a download.
   */
  @Test
  void aTrainingRun_logsAtDebug() throws Exception {
    launch();
    List<String> records =
        Files.readAllLines(log).stream().filter(l -> l.startsWith("record")).toList();
    assertTrue(records.size() >= 2, records.toString());
    assertTrue(records.contains("record BRAID_LOG=warn,org.braid=debug"), records.toString());
  }

  @Test
  void recordedAgain_whenTheJarOrJavaIsNewer() throws Exception {
    launch();
    ago(archive(), 50);
    Files.writeString(jar, "a new jar");
    ago(jar, 40);
    assertEquals(List.of("stat", "dump", withArchive()), launch());
    assertEquals(List.of(withArchive()), launch());
    ago(archive(), 50);
    ago(java, 40);
    assertEquals(List.of("stat", "dump", withArchive()), launch());
    assertEquals(List.of(withArchive()), launch());
  }

  /** Sets the time of {@code p} to {@code seconds} ago. */
  private static void ago(Path p, long seconds) throws IOException {
    Files.setLastModifiedTime(p, FileTime.from(Instant.now().minusSeconds(seconds)));
  }

  @Test
  void aJarReplacedByAnOlderOne_isUsedUntilTheJarMarksItStale_thenRecordedAgain() throws Exception {
    launch();
    Files.delete(jar);
    Files.writeString(jar, "a packaged jar");
    ago(jar, 3600);
    // the launcher cannot tell without a process; the JVM ignores the archive, the jar marks it
    assertEquals(List.of(withArchive()), launch());
    assertTrue(ClassDataArchive.markStaleIfUnused(archive().toString(), "mixed mode"));
    assertEquals(List.of("stat", "dump", withArchive()), launch());
    assertFalse(Files.exists(Path.of(archive() + ".stale")));
    assertEquals(List.of(withArchive()), launch());
  }

  @Test
  void anArchiveTheJvmRefusesTwiceForTheSameFiles_isGivenUp() throws Exception {
    launch();
    // e.g. BRAID_JAVA_OPTS=-Xshare:off: the jar marks it whatever the launcher records
    ClassDataArchive.markStaleIfUnused(archive().toString(), "mixed mode");
    assertEquals(List.of("stat", "dump", withArchive()), launch());
    ClassDataArchive.markStaleIfUnused(archive().toString(), "mixed mode");
    assertEquals(List.of("stat", withoutArchive()), launch());
    assertTrue(stderr.contains("java does not use the class-data archive"), stderr);
    assertEquals(List.of("stat", withoutArchive()), launch());
    assertEquals("", stderr);
    Files.setLastModifiedTime(jar, FileTime.from(Instant.now().plusSeconds(1)));
    assertEquals(List.of("stat", "dump", withArchive()), launch());
  }

  @Test
  void aFailedRecording_isReportedOnce_andNotRetriedForTheSameFiles() throws Exception {
    assertEquals(List.of("stat", withoutArchive()), launch("FAKE_DUMP_FAILS", "1"));
    assertTrue(stderr.contains("could not record the class-data archive"), stderr);
    assertEquals(List.of("stat", withoutArchive()), launch());
    assertEquals("", stderr);
    Files.setLastModifiedTime(jar, FileTime.from(Instant.now().plusSeconds(1)));
    assertEquals(List.of("stat", "dump", withArchive()), launch());
  }

  @Test
  void braidCdsOff_orNoCacheDirectory_runsTheJarWithoutAnArchive() throws Exception {
    assertEquals(List.of(withoutArchive()), launch("BRAID_CDS", "0"));
    cache = Path.of("");
    assertEquals(List.of(withoutArchive()), launch());
  }
}
