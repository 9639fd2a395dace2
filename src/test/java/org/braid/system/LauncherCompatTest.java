package org.braid.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The old launcher names ({@link Nginx}, {@link GridFtpServer}) still work on top of the test kit.
 * Delete with them.
 */
class LauncherCompatTest {
  @TempDir Path dir;

  @Test
  void oldNginx_braidLogsPerMirror() throws Exception {
    Path www = Files.createDirectories(dir.resolve("www"));
    Files.writeString(www.resolve("a.txt"), "hello");
    try (Nginx nginx =
        Nginx.start(www, dir.resolve("nginx"), List.of("0", "1m"), /* braidLogs= */ true)) {
      HttpClient http = HttpClient.newHttpClient();
      URI u = nginx.uri(1, "a.txt");
      assertEquals("http://127.0.0.1:" + nginx.port(1) + "/a.txt", u.toString());
      HttpResponse<String> r =
          http.send(HttpRequest.newBuilder(u).build(), HttpResponse.BodyHandlers.ofString());
      assertEquals("hello", r.body());
      assertEquals(0, Files.size(nginx.braidLog(0)));
      assertTrue(Files.readString(nginx.braidLog(1)).contains(" GET \"/a.txt\" 200 5 "));
    }
  }

  @Test
  void oldGridFtpServer_portAndTransferLog() throws Exception {
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    try (GridFtpServer g = GridFtpServer.start(Files.createDirectories(dir.resolve("logs")))) {
      Path f = dir.resolve("f.bin");
      assertEquals(URI.create("gsiftp://127.0.0.1:" + g.port + f), g.uri(f));
      assertEquals(dir.resolve("logs/transfer-" + g.port + ".log"), g.transferLog);
    }
  }
}
