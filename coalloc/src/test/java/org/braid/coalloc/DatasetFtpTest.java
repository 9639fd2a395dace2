package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A dataset job over a scripted GridFTP server: control sessions are reused across files. */
class DatasetFtpTest {
  @TempDir Path dir;

  @Test
  void manyFiles_reuseTheLoggedInSessions_atMostOnePerFileInFlight() throws Exception {
    Map<String, byte[]> data = new ConcurrentHashMap<>();
    SplittableRandom rnd = new SplittableRandom(3);
    List<DatasetFile> files = new ArrayList<>();
    try (StreamFtp ftp = new StreamFtp(data)) {
      for (int i = 0; i < 30; i++) {
        byte[] b = new byte[500 + i * 37];
        rnd.nextBytes(b);
        data.put("/d/f" + i, b);
        files.add(DatasetFile.of("d/f" + i, b.length, List.of(ftp.uri("/d/f" + i))));
      }
      DatasetReport r =
          Dataset.builder()
              .files(files)
              .outputDirectory(dir)
              .journal(null)
              .concurrency(3)
              .sourceOptions(SourceOptions.builder().gridFtpStreams(1).build())
              .build()
              .run();
      assertTrue(r.complete(), DatasetReports.text(r, 10));
      for (int i = 0; i < 30; i++) {
        assertArrayEquals(data.get("/d/f" + i), Files.readAllBytes(dir.resolve("d/f" + i)));
      }
      assertEquals(30, ftp.retrieves.get(), "one retrieve per file");
      assertTrue(ftp.logins.get() <= 3, ftp.logins.get() + " logins for 30 files at -j 3");
    }
  }

  /**
   * Just enough of a GridFTP server in stream mode: anonymous login, SIZE, MDTM, PASV and {@code
   * ERET P offset length path}; a thread per control connection; counts logins and retrieves.
   */
  private static final class StreamFtp implements Closeable {
    final AtomicInteger logins = new AtomicInteger();
    final AtomicInteger retrieves = new AtomicInteger();
    private final Map<String, byte[]> files;
    private final ServerSocket control;

    StreamFtp(Map<String, byte[]> files) throws IOException {
      this.files = files;
      this.control = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      Thread t =
          new Thread(
              () -> {
                while (!control.isClosed()) {
                  try {
                    Socket s = control.accept();
                    Thread c = new Thread(() -> session(s));
                    c.setDaemon(true);
                    c.start();
                  } catch (IOException e) {
                    return;
                  }
                }
              });
      t.setDaemon(true);
      t.start();
    }

    URI uri(String path) {
      return URI.create("gsiftp://127.0.0.1:" + control.getLocalPort() + path);
    }

    private void session(Socket s) {
      try (s) {
        BufferedReader in =
            new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
        OutputStream out = s.getOutputStream();
        reply(out, "220 scripted");
        ServerSocket pasv = null;
        for (String line; (line = in.readLine()) != null; ) {
          String[] w = line.split(" ");
          switch (w[0].toUpperCase(Locale.ROOT)) {
            case "USER" -> {
              logins.incrementAndGet();
              reply(out, "230 welcome");
            }
            case "TYPE" -> reply(out, "200 ok");
            case "SIZE" -> reply(out, "213 " + files.get(w[1]).length);
            case "MDTM" -> reply(out, "213 20261124000000");
            case "PASV" -> {
              pasv = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
              int p = pasv.getLocalPort();
              reply(
                  out, "227 Entering Passive Mode (127,0,0,1," + (p >> 8) + "," + (p & 255) + ")");
            }
            case "ERET" -> {
              byte[] b = files.get(w[4]);
              int off = Integer.parseInt(w[2]);
              int len = Integer.parseInt(w[3]);
              reply(out, "150 opening");
              try (ServerSocket ps = pasv;
                  Socket d = ps.accept()) {
                d.getOutputStream().write(b, off, len);
              }
              retrieves.incrementAndGet();
              reply(out, "226 done");
            }
            default -> reply(out, "500 unknown");
          }
        }
      } catch (IOException e) {
        // the client went away
      }
    }

    private static void reply(OutputStream out, String r) throws IOException {
      out.write((r + "\r\n").getBytes(StandardCharsets.UTF_8));
      out.flush();
    }

    @Override
    public void close() throws IOException {
      control.close();
    }
  }
}
