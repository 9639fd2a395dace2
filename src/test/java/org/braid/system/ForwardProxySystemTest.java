package org.braid.system;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.braid.coalloc.Download;
import org.braid.coalloc.SourceOptions;
import org.braid.testkit.Loopback;
import org.braid.testkit.RealComponent;
import org.braid.testkit.ServerProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Downloads through a real forward proxy (Debian's tinyproxy) on 127.0.0.1, chosen from the
 * environment as curl does: http_proxy for http (the proxy adds a Via header the server logs),
 * https_proxy or HTTPS_PROXY for https (a CONNECT tunnel in the proxy's log), and no_proxy.
 */
class ForwardProxySystemTest {
  static final int SIZE = 1_000_000;
  @TempDir static Path dir;
  static byte[] bytes;
  static GridServer http;
  static GridServer https;
  static GridPki pki;
  static ServerProcess tinyproxy;
  static int proxyPort;
  static Path proxyLog;

  @BeforeAll
  static void start() throws Exception {
    Path bin = RealComponent.executable("tinyproxy", "tinyproxy");
    pki = GridPki.create(dir.resolve("pki"));
    Path root = Files.createDirectories(dir.resolve("www"));
    bytes = new byte[SIZE];
    new SplittableRandom(3128).nextBytes(bytes);
    try (OutputStream o = Files.newOutputStream(root.resolve("data.bin"))) {
      o.write(bytes);
    }
    http = GridServer.start(dir.resolve("http"), root);
    https =
        GridServer.start(
            dir.resolve("https"),
            root,
            "--cert",
            pki.serverCert.toString(),
            "--key",
            pki.serverKey.toString());
    proxyPort = Loopback.freePort();
    proxyLog = dir.resolve("tinyproxy.log");
    Path conf = dir.resolve("tinyproxy.conf");
    Files.writeString(
        conf,
        String.join(
            "\n",
            "Port " + proxyPort,
            "Listen 127.0.0.1",
            "Timeout 60",
            "LogFile \"" + proxyLog + "\"",
            "LogLevel Info",
            "MaxClients 20",
            "Allow 127.0.0.1",
            "ConnectPort " + https.port,
            ""));
    tinyproxy =
        ServerProcess.start(
            "tinyproxy",
            List.of(bin.toString(), "-d", "-c", conf.toString()),
            dir.resolve("tinyproxy.out"),
            List.of(proxyPort),
            proxyLog);
  }

  @AfterAll
  static void stop() {
    if (tinyproxy != null) {
      tinyproxy.close();
    }
    if (http != null) {
      http.close();
    }
    if (https != null) {
      https.close();
    }
  }

  static void get(URI u, Map<String, String> env, String name) throws IOException {
    Path out = dir.resolve("out-" + name);
    Download.builder()
        .sources(List.of(u))
        .output(out)
        .journal(null)
        .resume(false)
        .sourceOptions(SourceOptions.builder().environment(env).build())
        .build()
        .run();
    assertArrayEquals(bytes, Files.readAllBytes(out));
  }

  static String proxy() {
    return "http://127.0.0.1:" + proxyPort;
  }

  static List<JsonNode> since(GridServer s, int from) throws IOException {
    List<JsonNode> all = s.requests();
    return all.subList(from, all.size());
  }

  @Test
  void httpProxy_carriesEveryHttpRequest() throws Exception {
    int from = http.requests().size();
    get(http.uri("data.bin"), Map.of("http_proxy", proxy()), "http");
    List<JsonNode> reqs = since(http, from);
    assertFalse(reqs.isEmpty());
    for (JsonNode r : reqs) {
      assertTrue(r.get("via").asText().contains("tinyproxy"), "not through the proxy: " + r);
    }
  }

  @Test
  void httpsProxy_tunnelsWithConnect() throws Exception {
    for (String var : new String[] {"https_proxy", "HTTPS_PROXY"}) {
      String before = Files.readString(proxyLog);
      get(
          https.uri("data.bin"),
          Map.of(var, proxy(), "X509_CERT_DIR", pki.caDir.toString()),
          "https-" + var);
      String added = Files.readString(proxyLog).substring(before.length());
      assertTrue(
          added.contains("CONNECT 127.0.0.1:" + https.port),
          var + ": no CONNECT logged:\n" + added);
    }
  }

  @Test
  void noProxy_hostIsReachedDirectly() throws Exception {
    for (String np : new String[] {"127.0.0.1", "127.0.0.0/8", "*"}) {
      int from = http.requests().size();
      get(http.uri("data.bin"), Map.of("http_proxy", proxy(), "no_proxy", np), "direct");
      for (JsonNode r : since(http, from)) {
        assertTrue(r.get("via").isNull(), "no_proxy=" + np + " went through the proxy: " + r);
      }
    }
  }

  @Test
  void upperCaseHttpProxy_ignoredAsCurlDoes() throws Exception {
    int from = http.requests().size();
    get(http.uri("data.bin"), Map.of("HTTP_PROXY", proxy()), "upper");
    for (JsonNode r : since(http, from)) {
      assertTrue(r.get("via").isNull(), r.toString());
    }
  }
}
