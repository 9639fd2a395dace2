package org.braid.system;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.braid.coalloc.Download;
import org.braid.coalloc.DownloadReport;
import org.braid.testkit.Loopback;
import org.braid.testkit.NginxServer;
import org.braid.testkit.ServerProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Python's {@code http.server}, which ignores Range, as one whole-file flow: alone, and beside an
 * nginx that serves ranges.
 */
class NoRangeServerSystemTest {
  static final int SIZE = 16_000_000;
  @TempDir static Path dir;
  static byte[] bytes;
  static ServerProcess python;
  static int port;
  static Path pythonLog;
  static NginxServer nginx;

  @BeforeAll
  static void start() throws Exception {
    Path root = Files.createDirectories(dir.resolve("www"));
    bytes = new byte[SIZE];
    new SplittableRandom(7233).nextBytes(bytes);
    try (OutputStream o = Files.newOutputStream(root.resolve("data.bin"))) {
      o.write(bytes);
    }
    port = Loopback.freePort();
    pythonLog = dir.resolve("http.server.log");
    python =
        ServerProcess.start(
            "python3 -m http.server",
            List.of(
                GridServer.python().toString(),
                "-m",
                "http.server",
                Integer.toString(port),
                "--bind",
                "127.0.0.1",
                "--directory",
                root.toString()),
            pythonLog,
            List.of(port));
    nginx = NginxServer.builder(dir.resolve("nginx")).server(root, "4m").start();
  }

  @AfterAll
  static void stop() throws Exception {
    if (python != null) {
      python.close();
    }
    if (nginx != null) {
      nginx.close();
    }
  }

  static URI pythonUri() {
    return URI.create("http://127.0.0.1:" + port + "/data.bin");
  }

  static long gets() throws IOException {
    return Files.readAllLines(pythonLog).stream()
        .filter(l -> l.contains("\"GET /data.bin"))
        .count();
  }

  static DownloadReport get(String name, URI... uris) throws IOException {
    Path out = dir.resolve("out-" + name);
    DownloadReport r =
        Download.builder()
            .sources(List.of(uris))
            .output(out)
            .journal(null)
            .resume(false)
            .build()
            .run();
    assertArrayEquals(bytes, Files.readAllBytes(out));
    return r;
  }

  @Test
  void asTheOnlySource_downloadsWithOneWholeFileRequest() throws Exception {
    long before = gets();
    DownloadReport r = get("alone", pythonUri());
    assertNull(r.replicas().get(0).dropped());
    assertEquals(SIZE, r.replicas().get(0).bytes());
    assertEquals(before + 2, gets(), "the probe and one whole-file request");
  }

  @Test
  void besideNginx_bothDeliver() throws Exception {
    DownloadReport r = get("beside-nginx", pythonUri(), nginx.uri(0, "data.bin"));
    assertNull(r.replicas().get(0).dropped(), r.replicas().toString());
    assertNull(r.replicas().get(1).dropped(), r.replicas().toString());
    assertTrue(r.replicas().get(0).bytes() > 0, r.replicas().toString());
    assertTrue(r.replicas().get(1).bytes() > 0, r.replicas().toString());
  }
}
