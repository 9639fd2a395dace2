package org.braid.system;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.braid.coalloc.Download;
import org.braid.coalloc.Scheme;
import org.braid.coalloc.SourceOptions;
import org.braid.coalloc.journal.JournalLine;
import org.braid.testkit.GlobusGridFtpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Extended block mode (MODE E) with parallel data connections from a real globus-gridftp-server:
 * its transfer log names the stream count of every partial retrieve ({@code STREAMS=n}). Fails
 * under CI=true when globus-gridftp-server is missing, else skips.
 */
class GridFtpModeEDownloadTest {
  static final int SIZE = 24_000_000;
  static final Pattern STREAMS = Pattern.compile(" STREAMS=(\\d+) .* TYPE=ERET ");
  @TempDir static Path dir;
  static Path data;
  static byte[] bytes;
  static GlobusGridFtpServer server;

  @BeforeAll
  static void start() throws Exception {
    GlobusGridFtpServer.binary();
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path www = Files.createDirectories(dir.resolve("www"));
    data = www.resolve("data.bin");
    bytes = new byte[SIZE];
    new SplittableRandom(20).nextBytes(bytes);
    try (OutputStream o = Files.newOutputStream(data)) {
      o.write(bytes);
    }
    server = GlobusGridFtpServer.builder(Files.createDirectories(dir.resolve("logs"))).start();
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  /** The stream counts of the ERET lines the server logged from line {@code from} on. */
  private static List<Integer> loggedStreams(int from) throws Exception {
    List<String> lines = Files.readAllLines(server.transferLog());
    List<Integer> n = new ArrayList<>();
    for (String l : lines.subList(Math.min(from, lines.size()), lines.size())) {
      Matcher m = STREAMS.matcher(l);
      if (m.find()) {
        n.add(Integer.parseInt(m.group(1)));
      }
    }
    return n;
  }

  private static int logLines() throws Exception {
    return Files.exists(server.transferLog()) ? Files.readAllLines(server.transferLog()).size() : 0;
  }

  @Test
  void fourStreams_serverLogsStreamsFour_andTheFileIsIdentical() throws Exception {
    int before = logLines();
    Path out = dir.resolve("out-4");
    Path journal = dir.resolve("journal-4.jsonl");
    Download.builder()
        .sources(List.of(server.uri(data)))
        .output(out)
        .scheme(Scheme.conservative(4))
        .sourceOptions(SourceOptions.builder().gridFtpStreams(4).tcpBuffer(1 << 20).build())
        .journal(journal)
        .build()
        .run();
    assertArrayEquals(bytes, Files.readAllBytes(out));
    List<Integer> logged = loggedStreams(before);
    assertFalse(logged.isEmpty());
    assertTrue(logged.stream().allMatch(n -> n == 4), Files.readString(server.transferLog()));
    // SBUF 1 MiB: the server's log shows the buffer it set (Linux doubles it)
    String last = Files.readAllLines(server.transferLog()).get(logLines() - 1);
    assertTrue(last.contains("BUFFER=2097152") || last.contains("BUFFER=1048576"), last);
    for (String l : Files.readAllLines(journal)) {
      assertEquals(4, JournalLine.parse(l).streams(), l);
    }
  }

  @Test
  void automatic_historyFavoursEight_serverLogsStreamsEight() throws Exception {
    URI uri = server.uri(data);
    Path journal = dir.resolve("journal-auto.jsonl");
    StringBuilder history = new StringBuilder();
    Instant t0 = Instant.parse("2026-11-20T00:00:00Z");
    int[] mbps = {0, 0, 20, 0, 35, 0, 0, 0, 60, 0, 0, 0, 0, 0, 0, 0, 58};
    for (int n : new int[] {2, 4, 8, 16}) {
      for (int i = 0; i < 2; i++) {
        history
            .append(
                new JournalLine(
                        "old",
                        uri.toString(),
                        "127.0.0.1:" + uri.getPort(),
                        "client",
                        uri.getPath(),
                        0,
                        mbps[n] * 1_000_000L,
                        1L << 30, // an earlier, larger file of the same server
                        t0,
                        t0.plusSeconds(1),
                        n,
                        "gsiftp",
                        "ok")
                    .toLine())
            .append('\n');
      }
    }
    Files.writeString(journal, history);
    int before = logLines();
    Path out = dir.resolve("out-auto");
    Download.builder()
        .sources(List.of(uri))
        .output(out)
        .scheme(Scheme.conservative(3))
        .journal(journal)
        .build()
        .run();
    assertArrayEquals(bytes, Files.readAllBytes(out));
    List<Integer> logged = loggedStreams(before);
    assertFalse(logged.isEmpty());
    assertTrue(logged.stream().allMatch(n -> n == 8), Files.readString(server.transferLog()));
  }

  @Test
  void automatic_noHistory_startsWithTwoStreams() throws Exception {
    int before = logLines();
    Path out = dir.resolve("out-fresh");
    Path journal = dir.resolve("journal-fresh.jsonl");
    Download.builder()
        .sources(List.of(server.uri(data)))
        .output(out)
        .scheme(Scheme.conservative(2))
        .journal(journal)
        .build()
        .run();
    assertArrayEquals(bytes, Files.readAllBytes(out));
    List<Integer> logged = loggedStreams(before);
    assertFalse(logged.isEmpty());
    assertEquals(2, logged.get(0), Files.readString(server.transferLog()));
  }
}
