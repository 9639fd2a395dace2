package org.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.braid.cli.mirror.Mirror;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A normal {@code braid get} whose broker asks an information provider logs nothing at ERROR: the
 * broker's HTTP client is shut down without its I/O thread tripping over a closed selector.
 */
class GetWithProviderLogTest {
  @TempDir Path dir;
  private final ListAppender<ILoggingEvent> events = new ListAppender<>();
  private Logger root;
  private HttpServer provider;
  private final AtomicInteger asked = new AtomicInteger();

  @BeforeEach
  void capture() throws Exception {
    root = ((LoggerContext) LoggerFactory.getILoggerFactory()).getLogger(Logger.ROOT_LOGGER_NAME);
    events.start();
    root.addAppender(events);
    provider = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    provider.createContext(
        "/",
        ex -> {
          asked.incrementAndGet();
          byte[] body = "[]".getBytes(StandardCharsets.UTF_8);
          ex.getResponseHeaders().add("Content-Type", "application/json");
          ex.sendResponseHeaders(200, body.length);
          try (OutputStream o = ex.getResponseBody()) {
            o.write(body);
          }
        });
    provider.start();
  }

  @AfterEach
  void release() {
    root.detachAppender(events);
    provider.stop(0);
  }

  @Test
  void getWithProvider_repeated_logsNoError() throws Exception {
    byte[] b = new byte[300_000];
    new SplittableRandom(2).nextBytes(b);
    Path data = Files.write(dir.resolve("data.bin"), b);
    try (Mirror m = Mirror.builder(data).start()) {
      Path list = Files.writeString(dir.resolve("urls.meta4"), metalink(m, b.length));
      // the close race showed in about one run of two before the fix: ten runs catch it
      for (int i = 0; i < 10; i++) {
        GetCommandTest.Run r =
            GetCommandTest.run(
                "get",
                "--metalink",
                list.toString(),
                "-o",
                dir.resolve("out" + i + ".bin").toString(),
                "--no-journal",
                "--discovery-timeout",
                "2",
                "--provider-port",
                String.valueOf(provider.getAddress().getPort()));
        assertEquals(0, r.code(), r.err());
      }
    }
    assertTrue(asked.get() >= 10, "the provider was asked " + asked.get() + " times");
    Thread.sleep(200); // an I/O thread's late error would arrive now
    List<String> errors =
        events.list.stream()
            .filter(e -> e.getLevel().isGreaterOrEqual(Level.ERROR))
            .map(
                e ->
                    e.getLoggerName()
                        + ": "
                        + e.getFormattedMessage()
                        + " "
                        + e.getThrowableProxy())
            .toList();
    assertEquals(List.of(), errors);
  }

  private static String metalink(Mirror m, long size) {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        + "<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\">\n"
        + "  <file name=\"data.bin\"><size>"
        + size
        + "</size>\n"
        + "    <url priority=\"1\">"
        + m.uri()
        + "</url>\n"
        + "  </file>\n</metalink>\n";
  }
}
