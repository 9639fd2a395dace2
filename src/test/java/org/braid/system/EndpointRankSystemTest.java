package org.braid.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.braid.cli.BraidCli;
import org.braid.provider.Provider;
import org.braid.provider.ProviderConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21 end to end: one host (127.0.0.1) runs an nginx door and a globus-gridftp-server door on
 * different ports at clearly different rates, and one information provider reads both servers'
 * logs, each mapped to its endpoint. {@code braid rank} of the same file's replicas must give each
 * replica its own door's rate, in the right order, and a replica on a third port (a real nginx door
 * whose log the provider does not read) must be listed as unknown, not given a neighbour's figures.
 *
 * <p>The rates are real and set on purpose. nginx sends at most {@code limit_rate 2000k} (2,048,000
 * bytes per second, R) beyond an allowance it grants at once: once k whole seconds have passed
 * since the second the request started, it has let R * (k + 1) bytes go. A transfer of S = 10 MB
 * therefore ends at k = ceil(S / R - 1) = 4, between 3 and 4 seconds after it started, and logs 2.5
 * to 3.3 MB/s. The GridFTP server sends to a client that reads 8,000,000 bytes per second with 64
 * KiB TCP buffers on both ends (the server's set with the {@code SBUF} command), so TCP flow
 * control holds the server to the client's pace and its transfer log records the paced duration.
 */
class EndpointRankSystemTest {

  static final int SIZE = 10_000_000;
  static final double HTTP_LIMIT = 2000 * 1024; // nginx limit_rate 2000k
  static final double GRIDFTP_RATE = 8_000_000; // the paced client's reading rate
  static final int TRANSFERS = 3;

  @TempDir static Path dir;
  static Nginx nginx;
  static GridFtpServer gridftp;
  static Provider provider;
  static Path data;
  static String httpUrl;
  static String gsiftpUrl;
  static String thirdUrl;

  @BeforeAll
  static void start() throws Exception {
    GridFtpServer.binary();
    Nginx.binary();
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path www = Files.createDirectories(dir.resolve("www"));
    data = www.resolve("f.bin");
    byte[] bytes = new byte[SIZE];
    new SplittableRandom(21).nextBytes(bytes);
    Files.write(data, bytes);
    nginx =
        Nginx.start(
            www, Files.createDirectories(dir.resolve("nginx")), List.of("2000k", "0"), true);
    gridftp = GridFtpServer.start(Files.createDirectories(dir.resolve("gridftp")));
    httpUrl = nginx.uri(0, "f.bin").toString();
    thirdUrl = nginx.uri(1, "f.bin").toString();
    gsiftpUrl = gridftp.uri(data).toString();

    HttpClient http = HttpClient.newHttpClient();
    for (int i = 0; i < TRANSFERS; i++) {
      assertEquals(SIZE, get(http, httpUrl));
      assertEquals(SIZE, pacedRetrieve(gridftp.port, data, GRIDFTP_RATE));
    }
    // The third door really serves the file; its log is not one the provider reads.
    assertEquals(SIZE, get(http, thirdUrl));

    Path yaml =
        Files.writeString(
            dir.resolve("provider.yaml"),
            String.join(
                "\n",
                "hostname: localhost",
                "database: " + dir.resolve("provider.db"),
                "http: {port: 0}",
                "logs:",
                "  - path: " + gridftp.transferLog,
                "    format: gridftp",
                "    endpoint: gsiftp://127.0.0.1:" + gridftp.port,
                "  - path: " + nginx.braidLog(0),
                "    format: nginx",
                "    endpoint: http://127.0.0.1:" + nginx.port(0) + "/",
                ""));
    provider = Provider.fromConfig(ProviderConfig.load(yaml), InstantSource.system());
    provider.start(); // reads both logs first
  }

  @AfterAll
  static void stop() throws Exception {
    for (AutoCloseable c : new AutoCloseable[] {provider, gridftp, nginx}) {
      if (c != null) {
        c.close();
      }
    }
  }

  static long get(HttpClient http, String url) throws Exception {
    HttpResponse<InputStream> r =
        http.send(
            HttpRequest.newBuilder(URI.create(url)).build(),
            HttpResponse.BodyHandlers.ofInputStream());
    assertEquals(200, r.statusCode(), url);
    try (InputStream in = r.body()) {
      return in.transferTo(OutputStream.nullOutputStream());
    }
  }

  /**
   * Retrieves {@code file} from the GridFTP door with plain FTP as the anonymous user, reading at
   * most {@code rate} bytes per second through 64 KiB TCP buffers (the server's set by {@code
   * SBUF}), so that the server sends at the client's pace.
   *
   * @return the bytes read
   */
  static long pacedRetrieve(int port, Path file, double rate) throws Exception {
    try (Socket control = new Socket()) {
      control.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5_000);
      control.setSoTimeout(60_000);
      BufferedReader in =
          new BufferedReader(
              new InputStreamReader(control.getInputStream(), StandardCharsets.US_ASCII));
      Writer out = new PrintWriter(control.getOutputStream(), true, StandardCharsets.US_ASCII);
      reply(in, "220");
      command(out, in, "USER anonymous", "331");
      command(out, in, "PASS braid@example.org", "230");
      command(out, in, "TYPE I", "200");
      command(out, in, "SBUF 65536", "200");
      String pasv = command(out, in, "PASV", "227");
      Matcher m = Pattern.compile("\\((\\d+),(\\d+),(\\d+),(\\d+),(\\d+),(\\d+)\\)").matcher(pasv);
      assertTrue(m.find(), pasv);
      int dataPort = Integer.parseInt(m.group(5)) * 256 + Integer.parseInt(m.group(6));
      long got = 0;
      try (Socket d = new Socket()) {
        d.setReceiveBufferSize(64 * 1024);
        d.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), dataPort), 5_000);
        d.setSoTimeout(60_000);
        command(out, in, "RETR " + file.toAbsolutePath(), "150");
        InputStream din = d.getInputStream();
        byte[] buf = new byte[16 * 1024];
        long t0 = System.nanoTime();
        int n;
        while ((n = din.read(buf)) > 0) {
          got += n;
          long ahead = (long) (got / rate * 1e9) - (System.nanoTime() - t0);
          if (ahead > 0) {
            Thread.sleep(ahead / 1_000_000, (int) (ahead % 1_000_000));
          }
        }
      }
      reply(in, "226");
      command(out, in, "QUIT", "221");
      return got;
    }
  }

  private static String command(Writer out, BufferedReader in, String line, String code)
      throws IOException {
    out.write(line + "\r\n");
    out.flush();
    return reply(in, code);
  }

  /** Reads one reply (multi-line replies to their last line) and checks its code. */
  private static String reply(BufferedReader in, String code) throws IOException {
    String line = in.readLine();
    StringBuilder all = new StringBuilder(String.valueOf(line));
    while (line != null && line.length() >= 4 && line.charAt(3) == '-') {
      line = in.readLine();
      all.append(" | ").append(line);
    }
    assertTrue(line != null && line.startsWith(code + " "), "expected " + code + ": " + all);
    return line;
  }

  static String[] rank(String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "rank",
                "--no-journal",
                "--no-conventional",
                "--size",
                String.valueOf(SIZE),
                "--provider",
                "127.0.0.1=http://127.0.0.1:" + provider.httpPort() + "/v1/ads"));
    args.addAll(List.of(extra));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        BraidCli.execute(new PrintWriter(out), new PrintWriter(err), args.toArray(String[]::new));
    assertEquals(0, code, out + "\n" + err);
    assertEquals("", err.toString());
    return out.toString().split("\n");
  }

  @Test
  void braidRank_eachReplicaItsOwnEndpointsRate_inOrder_aThirdPortUnknown() throws Exception {
    String[] table = rank(thirdUrl, httpUrl, gsiftpUrl);
    assertTrue(table[1].startsWith("1    " + gsiftpUrl), String.join("\n", table));
    assertTrue(table[2].startsWith("2    " + httpUrl), String.join("\n", table));
    assertTrue(table[3].startsWith("3    " + thirdUrl), String.join("\n", table));
    assertTrue(table[3].contains(" none "), table[3]);
    String unknown =
        "     (provider http://127.0.0.1:"
            + provider.httpPort()
            + "/v1/ads publishes no statistics for endpoint http://127.0.0.1:"
            + nginx.port(1)
            + " (only for gsiftp://127.0.0.1:"
            + gridftp.port
            + ", http://127.0.0.1:"
            + nginx.port(0)
            + "))";
    assertEquals(unknown, table[4]);
    assertEquals(5, table.length, String.join("\n", table));

    JsonNode j =
        new ObjectMapper()
            .readTree(String.join("\n", rank("--json", thirdUrl, httpUrl, gsiftpUrl)));
    JsonNode g = j.get(0);
    JsonNode h = j.get(1);
    JsonNode t = j.get(2);
    assertEquals(httpUrl, h.get("url").asText());
    assertEquals(gsiftpUrl, g.get("url").asText());
    assertEquals(thirdUrl, t.get("url").asText());
    double httpRate = h.get("predictedBandwidth").asDouble();
    double gridftpRate = g.get("predictedBandwidth").asDouble();
    // Each door's own figure. nginx: the transfer lasts k - 1 to k seconds (see the class
    // comment), with 10% to spare. GridFTP: the client's pace; a little above it at most (the
    // last ~200 KB sit in the TCP buffers when the server logs the end), below it when the paced
    // reader is starved of CPU on a loaded machine.
    double k = Math.ceil(SIZE / HTTP_LIMIT - 1);
    assertTrue(httpRate > 0.9 * SIZE / k && httpRate < 1.1 * SIZE / (k - 1), httpRate + " " + j);
    assertTrue(
        gridftpRate > 0.6 * GRIDFTP_RATE && gridftpRate < 1.25 * GRIDFTP_RATE,
        gridftpRate + " " + j);
    assertTrue(gridftpRate > 1.5 * httpRate, j.toString());
    assertEquals("provider-average", h.get("source").asText());
    assertEquals("provider-average", g.get("source").asText());
    assertTrue(h.get("discovery").isNull() && g.get("discovery").isNull(), j.toString());
    assertTrue(t.get("predictedBandwidth").isNull(), j.toString());
    assertEquals("none", t.get("source").asText());
    assertEquals(
        unknown.substring("     (".length(), unknown.length() - 1), t.get("discovery").asText());
  }

  @Test
  void braidRank_providerNamedForTheThirdPort_stillGivesItNoNeighboursFigures() {
    String[] table =
        rank(
            "--provider",
            "127.0.0.1:" + nginx.port(1) + "=http://127.0.0.1:" + provider.httpPort() + "/v1/ads",
            thirdUrl);
    assertTrue(table[1].startsWith("1    " + thirdUrl) && table[1].contains(" none "), table[1]);
    assertTrue(table[2].contains("publishes no statistics for endpoint"), table[2]);
  }
}
