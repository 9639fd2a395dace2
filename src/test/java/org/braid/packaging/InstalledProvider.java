package org.braid.packaging;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.braid.infoprovider.wire.AdsJson;
import org.braid.infoprovider.wire.ProviderApi;

/**
 * {@code braid provider serve} started from installed files, on 127.0.0.1 and a free port, with the
 * package's example configuration pointed at a temporary log and database.
 */
final class InstalledProvider implements AutoCloseable {

  static final String HOSTNAME = "packaged.example.org";
  private static final Pattern SERVING =
      Pattern.compile("braid provider: serving on http://127\\.0\\.0\\.1:(\\d+) .*");
  private static final DateTimeFormatter GRIDFTP_TIME =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmss.SSSSSS").withZone(ZoneOffset.UTC);

  private final Process process;
  private final Path out;
  private final Path err;
  private int port;

  /** Output goes to files: a pipe read while the process exits can lose its last lines. */
  private InstalledProvider(Process process, Path out, Path err) {
    this.process = process;
    this.out = out;
    this.err = err;
  }

  /**
   * Copies the example configuration {@code example} to {@code work}/provider.yaml, pointing it at
   * a GridFTP transfer log there holding one read by 127.0.0.1 a minute ago, a database there and
   * port 0, with a 1 s poll. Fails if the example no longer has the settings it rewrites.
   */
  static Path configFrom(Path example, Path work) throws IOException {
    Instant end = Instant.now().minusSeconds(60);
    Path log = work.resolve("transfer.log");
    Files.writeString(
        log,
        "DATE="
            + GRIDFTP_TIME.format(end)
            + " HOST=vm PROG=globus-gridftp-server NL.EVNT=FTP_INFO START="
            + GRIDFTP_TIME.format(end.minusSeconds(2))
            + " USER=anonymous FILE=/data/a.bin BUFFER=131072 BLOCK=262144 NBYTES=3000000"
            + " VOLUME=/ STREAMS=1 STRIPES=1 DEST=[127.0.0.1] TYPE=RETR CODE=226 TASKID=none\n");
    String yaml = Files.readString(example);
    yaml = replace(yaml, "(?m)^# hostname: \\S+", "hostname: " + HOSTNAME);
    yaml = replace(yaml, "/var/lib/braid-provider/provider.db", work.resolve("provider.db"));
    yaml = replace(yaml, "/var/log/gridftp/transfer.log", log);
    yaml = replace(yaml, "(?m)^  port: 8790", "  port: 0");
    yaml = replace(yaml, "(?m)^poll: 10s", "poll: 1s");
    return Files.writeString(work.resolve("provider.yaml"), yaml);
  }

  private static String replace(String text, String regex, Object with) {
    Matcher m = Pattern.compile(regex).matcher(text);
    if (!m.find()) {
      fail("the example provider.yaml no longer matches /" + regex + "/:\n" + text);
    }
    return m.replaceFirst(Matcher.quoteReplacement(with.toString()));
  }

  /**
   * Starts {@code command} with {@code env} added, its output in {@code dir}, and waits until it
   * serves (at most 2 min).
   */
  static InstalledProvider start(List<String> command, Map<String, String> env, Path dir)
      throws Exception {
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().putAll(env);
    pb.redirectOutput(dir.resolve("provider.out").toFile());
    pb.redirectError(dir.resolve("provider.err").toFile());
    pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    InstalledProvider p =
        new InstalledProvider(pb.start(), dir.resolve("provider.out"), dir.resolve("provider.err"));
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (p.port == 0 && p.process.isAlive() && System.nanoTime() < deadline) {
      Thread.sleep(100);
      for (String line : p.stdout().lines().toList()) {
        Matcher m = SERVING.matcher(line);
        if (m.matches()) {
          p.port = Integer.parseInt(m.group(1));
        }
      }
    }
    if (p.port == 0) {
      p.close();
      fail("the provider did not start:\nstdout:\n" + p.stdout() + "\nstderr:\n" + p.stderr());
    }
    return p;
  }

  /** The ads in /v1/ads (JSON), once the log's transfer is in them (at most 60 s). */
  List<Map<String, Object>> adsOnceImported() throws Exception {
    URI uri = URI.create("http://127.0.0.1:" + port + ProviderApi.ADS);
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      HttpResponse<byte[]> r =
          http.send(
              HttpRequest.newBuilder(uri)
                  .header("Accept", "application/json")
                  .timeout(Duration.ofSeconds(10))
                  .build(),
              HttpResponse.BodyHandlers.ofByteArray());
      assertTrue(r.statusCode() == 200, "GET " + uri + ": " + r.statusCode());
      List<Map<String, Object>> ads = AdsJson.parse(r.body());
      if (!ads.isEmpty() || System.nanoTime() > deadline) {
        return ads;
      }
      Thread.sleep(200);
    }
  }

  String stdout() throws IOException {
    return Files.readString(out);
  }

  String stderr() throws IOException {
    return Files.readString(err);
  }

  /**
   * Stops it with SIGTERM, as systemd does; true if it then exited within 30 s having said so on
   * stdout.
   */
  boolean stop() throws InterruptedException, IOException {
    process.destroy();
    return process.waitFor(30, TimeUnit.SECONDS) && stdout().contains("braid provider: stopped");
  }

  /** Kills it if it is still running. */
  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroyForcibly();
    }
  }
}
