package org.braid.system;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.braid.cli.BraidCli;
import org.braid.coalloc.Download;
import org.braid.coalloc.DownloadException;
import org.braid.coalloc.DownloadReport;
import org.braid.coalloc.SourceOptions;
import org.braid.coalloc.credentials.GridEnvironment;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Grid credentials against real TLS servers on 127.0.0.1 (Python's ssl module, that is OpenSSL,
 * with X509_V_FLAG_ALLOW_PROXY_CERTS): an RFC 3820 proxy made with openssl in the test, the CA in a
 * directory of hashed names made by {@code openssl rehash}, bearer tokens from each place of WLCG
 * discovery, and redirects to another host that must carry neither the token nor the certificate.
 */
class GridCredentialsSystemTest {
  static final int SIZE = 1_500_000;
  static final String TOKEN = "eyJhbGciOiJub25lIn0.eyJzdWIiOiJicmFpZCJ9.test-token";
  @TempDir static Path dir;
  static GridPki pki;
  static Path root;
  static byte[] bytes;
  static GridServer elsewhere;
  static GridServer proxies;
  static GridServer strict;
  static GridServer tokens;
  static GridServer plainTokens;

  @BeforeAll
  static void start() throws Exception {
    pki = GridPki.create(dir.resolve("pki"));
    root = Files.createDirectories(dir.resolve("www"));
    bytes = new byte[SIZE];
    new SplittableRandom(3820).nextBytes(bytes);
    try (OutputStream o = Files.newOutputStream(root.resolve("data.bin"))) {
      o.write(bytes);
    }
    String[] tls = {"--cert", pki.serverCert.toString(), "--key", pki.serverKey.toString()};
    String[] clientAuth = {"--capath", pki.caDir.toString(), "--allow-proxy-certs"};
    // asks for a certificate without requiring one, and logs whether one came
    elsewhere = GridServer.start(dir.resolve("elsewhere"), root, concat(tls, clientAuth));
    String back = "https://localhost:" + elsewhere.port;
    proxies =
        GridServer.start(
            dir.resolve("proxies"),
            root,
            concat(tls, clientAuth, new String[] {"--require-client", "--redirect", back}));
    strict =
        GridServer.start(
            dir.resolve("strict"),
            root,
            concat(tls, new String[] {"--capath", pki.caDir.toString(), "--require-client"}));
    tokens =
        GridServer.start(
            dir.resolve("tokens"),
            root,
            concat(tls, new String[] {"--token", TOKEN, "--redirect", back}));
    plainTokens = GridServer.start(dir.resolve("plain"), root, "--token", TOKEN);
  }

  @AfterAll
  static void stop() {
    for (GridServer s : new GridServer[] {elsewhere, proxies, strict, tokens, plainTokens}) {
      if (s != null) {
        s.close();
      }
    }
  }

  static String[] concat(String[]... parts) {
    return java.util.Arrays.stream(parts).flatMap(java.util.Arrays::stream).toArray(String[]::new);
  }

  static Map<String, String> env(String... kv) {
    Map<String, String> m = new HashMap<>();
    m.put("X509_CERT_DIR", pki.caDir.toString());
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  DownloadReport get(URI u, Map<String, String> env, String name) throws IOException {
    Path out = dir.resolve("out-" + name);
    DownloadReport r =
        Download.builder()
            .sources(List.of(u))
            .output(out)
            .journal(null)
            .resume(false)
            .sourceOptions(SourceOptions.builder().environment(env).build())
            .build()
            .run();
    assertArrayEquals(bytes, Files.readAllBytes(out));
    return r;
  }

  static void assertAllFromProxy(GridServer s) throws IOException {
    List<JsonNode> reqs = s.requests();
    assertFalse(reqs.isEmpty());
    for (JsonNode r : reqs) {
      // the proxy's subject: the user's DN plus CN=4242
      assertEquals(
          "domainComponent=org/domainComponent=braid-test/commonName=Grid User/commonName=4242",
          r.get("client").asText(),
          r.toString());
    }
  }

  @Test
  void proxyFromX509UserProxy_acceptedByServerRequiringClientCertificate() throws Exception {
    int before = proxies.requests().size();
    get(proxies.uri("data.bin"), env("X509_USER_PROXY", pki.proxy.toString()), "x509-user-proxy");
    assertTrue(proxies.requests().size() > before);
    assertAllFromProxy(proxies);
  }

  @Test
  void davsUrl_isHttpsWithTheSameCredentials() throws Exception {
    int before = proxies.requests().size();
    URI davs = URI.create("davs://127.0.0.1:" + proxies.port + "/data.bin");
    get(davs, env("X509_USER_PROXY", pki.proxy.toString()), "davs");
    assertTrue(proxies.requests().size() > before);
    assertAllFromProxy(proxies);
  }

  @Test
  void sameProxy_refusedByServerThatDoesNotAllowProxies() {
    // OpenSSL without X509_V_FLAG_ALLOW_PROXY_CERTS: proves the proxy chain is what is presented
    DownloadException e =
        assertThrows(
            DownloadException.class,
            () ->
                get(
                    strict.uri("data.bin"),
                    env("X509_USER_PROXY", pki.proxy.toString()),
                    "strict"));
    assertTrue(
        e.getMessage().startsWith("no usable replica: " + strict.uri("data.bin")), e.getMessage());
  }

  @Test
  void proxyAtDefaultPath_tmpX509upUid_isFound() throws Exception {
    Path p = Path.of("/tmp", "x509up_u" + GridEnvironment.currentUid());
    Assumptions.assumeFalse(
        Files.exists(p), p + " exists already (a real proxy of this user): not replaced by a test");
    Files.copy(pki.proxy, p);
    try {
      Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-------"));
      get(proxies.uri("data.bin"), env(), "default-proxy-path");
      assertAllFromProxy(proxies);
    } finally {
      Files.deleteIfExists(p);
    }
  }

  @Test
  void cli_clientCertIsPemProxy_caBundleIsHashedDirectory() throws Exception {
    Path out = dir.resolve("out-cli");
    StringWriter err = new StringWriter();
    int code =
        BraidCli.execute(
            new PrintWriter(new StringWriter()),
            new PrintWriter(err),
            "get",
            proxies.uri("data.bin").toString(),
            "-o",
            out.toString(),
            "--client-cert",
            pki.proxy.toString(),
            "--ca-bundle",
            pki.caDir.toString(),
            "--no-journal");
    assertEquals(0, code, err.toString());
    assertArrayEquals(bytes, Files.readAllBytes(out));
  }

  @Test
  void clientCertificate_notPresentedToAnotherHostAfterRedirect() throws Exception {
    int here = proxies.requests().size();
    int there = elsewhere.requests().size();
    get(
        proxies.uri("redirect/data.bin"),
        env("X509_USER_PROXY", pki.proxy.toString()),
        "cert-redirect");
    List<JsonNode> redirected = proxies.requests().subList(here, proxies.requests().size());
    assertTrue(
        redirected.stream().allMatch(r -> r.get("status").asInt() == 302), redirected.toString());
    List<JsonNode> served = elsewhere.requests().subList(there, elsewhere.requests().size());
    assertFalse(served.isEmpty());
    for (JsonNode r : served) {
      assertTrue(r.get("client").isNull(), "certificate presented to localhost: " + r);
    }
  }

  /** Where a token is put for each place of WLCG discovery. */
  Map<String, String> tokenAt(String place, String token) throws IOException {
    Path d = Files.createDirectories(dir.resolve("tokens-" + place));
    Path file = d.resolve("bt_u" + GridEnvironment.currentUid());
    switch (place) {
      case "BEARER_TOKEN":
        return env("BEARER_TOKEN", token);
      case "BEARER_TOKEN_FILE":
        Files.writeString(d.resolve("token"), token + "\n");
        return env("BEARER_TOKEN_FILE", d.resolve("token").toString());
      case "XDG_RUNTIME_DIR":
        Files.writeString(file, token + "\n");
        return env("XDG_RUNTIME_DIR", d.toString());
      default:
        throw new IllegalArgumentException(place);
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"BEARER_TOKEN", "BEARER_TOKEN_FILE", "XDG_RUNTIME_DIR"})
  void tokenDiscovery_eachPlace_isSentToTheServer(String place) throws Exception {
    get(tokens.uri("data.bin"), tokenAt(place, TOKEN), "token-" + place);
  }

  @Test
  void tokenDiscovery_tmpBtUid_isSentToTheServer() throws Exception {
    Path p = Path.of("/tmp", "bt_u" + GridEnvironment.currentUid());
    Assumptions.assumeFalse(
        Files.exists(p), p + " exists already (a real token of this user): not replaced by a test");
    Files.writeString(p, TOKEN + "\n", StandardOpenOption.CREATE_NEW);
    try {
      Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-------"));
      get(tokens.uri("data.bin"), env(), "token-tmp");
    } finally {
      Files.deleteIfExists(p);
    }
  }

  @Test
  void tokenDiscovery_standardOrder_firstPlaceWins() throws Exception {
    Map<String, String> e = tokenAt("BEARER_TOKEN_FILE", "wrong");
    e.put("BEARER_TOKEN", TOKEN); // before the file
    get(tokens.uri("data.bin"), e, "token-order-1");
    Map<String, String> f = tokenAt("XDG_RUNTIME_DIR", "wrong");
    Files.writeString(dir.resolve("right-token"), TOKEN);
    f.put("BEARER_TOKEN_FILE", dir.resolve("right-token").toString()); // before XDG_RUNTIME_DIR
    get(tokens.uri("data.bin"), f, "token-order-2");
  }

  @Test
  void noToken_answered401() {
    DownloadException e =
        assertThrows(DownloadException.class, () -> get(tokens.uri("data.bin"), env(), "no-token"));
    assertTrue(e.getMessage().contains("401"), e.getMessage());
  }

  @Test
  void discoveredToken_notSentOverPlainHttp() {
    DownloadException e =
        assertThrows(
            DownloadException.class,
            () -> get(plainTokens.uri("data.bin"), tokenAt("BEARER_TOKEN", TOKEN), "plain"));
    assertTrue(e.getMessage().contains("401"), e.getMessage());
  }

  @Test
  void token_notCarriedToAnotherHostAfterRedirect() throws Exception {
    int here = tokens.requests().size();
    int there = elsewhere.requests().size();
    get(tokens.uri("redirect/data.bin"), tokenAt("BEARER_TOKEN", TOKEN), "token-redirect");
    List<JsonNode> asked = tokens.requests().subList(here, tokens.requests().size());
    assertTrue(asked.stream().allMatch(r -> r.get("authorization").asBoolean()), asked.toString());
    List<JsonNode> served = elsewhere.requests().subList(there, elsewhere.requests().size());
    assertFalse(served.isEmpty());
    for (JsonNode r : served) {
      assertFalse(r.get("authorization").asBoolean(), "token sent to localhost: " + r);
    }
  }
}
