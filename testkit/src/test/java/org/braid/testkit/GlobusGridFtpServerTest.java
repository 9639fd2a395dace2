package org.braid.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Needs globus-gridftp-server (Debian: globus-gridftp-server-progs); fails under CI=true without
 * it, skips elsewhere. Talks to the control channel directly (no GridFTP client in this module).
 */
class GlobusGridFtpServerTest {

  @TempDir Path dir;

  @Test
  void anonymousServer_answersSizeOfAFile_andHonoursOptions() throws Exception {
    Path data = SharedDirs.open(dir, "data");
    Path file = Files.write(data.resolve("f.bin"), new byte[12_345]);
    Path logs = SharedDirs.open(dir, "logs");
    try (GlobusGridFtpServer ftp =
        GlobusGridFtpServer.builder(logs)
            .transferLog(logs.resolve("t.log"))
            .options("-disable-command-list", "ERET")
            .start()) {
      assertEquals(logs.resolve("t.log"), ftp.transferLog());
      assertEquals("gsiftp://127.0.0.1:" + ftp.port() + file, ftp.uri(file).toString());
      assertEquals("ftp://127.0.0.1:" + ftp.port() + file, ftp.uri("ftp", file).toString());
      try (Socket s = new Socket(InetAddress.getLoopbackAddress(), ftp.port())) {
        s.setSoTimeout(10_000);
        BufferedReader in =
            new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
        OutputStream out = s.getOutputStream();
        assertTrue(reply(in).startsWith("220"));
        assertTrue(command(out, in, "USER anonymous").startsWith("331"));
        assertTrue(command(out, in, "PASS braid@").startsWith("230"));
        assertEquals("213 12345", command(out, in, "SIZE " + file));
        assertTrue(command(out, in, "ERET P 0 10 " + file).startsWith("5"), "ERET disabled");
        command(out, in, "QUIT");
      }
    }
  }

  private static String command(OutputStream out, BufferedReader in, String line)
      throws IOException {
    out.write((line + "\r\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
    return reply(in);
  }

  /** The last line of a (possibly multi-line) FTP reply. */
  private static String reply(BufferedReader in) throws IOException {
    String line = in.readLine();
    if (line != null && line.length() > 3 && line.charAt(3) == '-') {
      String code = line.substring(0, 3);
      while (line != null && !(line.startsWith(code) && line.charAt(3) == ' ')) {
        line = in.readLine();
      }
    }
    return line;
  }
}
