package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.braid.cli.mirror.Mirror;
import org.braid.coalloc.credentials.GridEnvironment;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bearer tokens, custom CA bundles and client certificates against an HTTPS mirror. */
class AuthTest {
  @TempDir static Path dir;
  static Path src;

  static void keytool(String... args) throws Exception {
    List<String> cmd = new java.util.ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, out);
  }

  static void keypair(String alias, String dname, String file) throws Exception {
    keytool(
        "-genkeypair",
        "-alias",
        alias,
        "-keyalg",
        "RSA",
        "-keysize",
        "2048",
        "-dname",
        dname,
        "-ext",
        "SAN=ip:127.0.0.1",
        "-validity",
        "2",
        "-keystore",
        file,
        "-storetype",
        "PKCS12",
        "-storepass",
        "changeit",
        "-keypass",
        "changeit");
    keytool(
        "-exportcert",
        "-rfc",
        "-alias",
        alias,
        "-keystore",
        file,
        "-storepass",
        "changeit",
        "-file",
        alias + ".pem");
  }

  @BeforeAll
  static void keys() throws Exception {
    src = TestFiles.random(dir, "data.bin", 1_000_000, 4);
    keypair("server", "CN=127.0.0.1", "server.p12");
    keypair("client", "CN=braid-client", "client.p12");
    keytool(
        "-importcert",
        "-noprompt",
        "-alias",
        "client",
        "-file",
        "client.pem",
        "-keystore",
        "trust.p12",
        "-storetype",
        "PKCS12",
        "-storepass",
        "changeit");
  }

  static KeyStore load(String file) throws Exception {
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(dir.resolve(file))) {
      ks.load(in, "changeit".toCharArray());
    }
    return ks;
  }

  static SSLContext serverContext() throws Exception {
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(load("server.p12"), "changeit".toCharArray());
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(load("trust.p12"));
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
    return ctx;
  }

  DownloadReport get(Mirror m, SourceOptions o) throws Exception {
    return Download.builder()
        .sources(List.of(m.uri()))
        .output(dir.resolve("out.bin"))
        .sourceOptions(o)
        .journal(null)
        .build()
        .run();
  }

  @Test
  void bearerToken_plainHttp_allowedExplicitly_isSent() throws Exception {
    try (Mirror m = Mirror.builder(src).bearerToken("s3cret").start()) {
      get(m, SourceOptions.builder().bearerToken("s3cret").allowInsecureToken(true).build());
      assertArrayEquals(Files.readAllBytes(src), Files.readAllBytes(dir.resolve("out.bin")));
      DownloadException e =
          assertThrows(DownloadException.class, () -> get(m, SourceOptions.DEFAULT));
      assertEquals("no usable replica: " + m.uri() + ": HTTP 401 Unauthorized", e.getMessage());
    }
  }

  @Test
  void bearerToken_notSentToAnotherHostAfterRedirect() throws Exception {
    try (Mirror target = Mirror.builder(src).start()) {
      // same file on "localhost" instead of 127.0.0.1: another origin for the client
      java.net.URI elsewhere =
          java.net.URI.create(target.uri().toString().replace("127.0.0.1", "localhost"));
      try (Mirror origin = Mirror.builder(src).redirectTo(elsewhere).start()) {
        get(origin, SourceOptions.builder().bearerToken("s3cret").allowInsecureToken(true).build());
        assertArrayEquals(Files.readAllBytes(src), Files.readAllBytes(dir.resolve("out.bin")));
        assertEquals("Bearer s3cret", origin.lastAuthorization());
        assertEquals(null, target.lastAuthorization());
      }
    }
  }

  @Test
  void bearerToken_plainHttp_refusedNamingTheUrl_beforeAnyRequest() throws Exception {
    try (Mirror m = Mirror.builder(src).bearerToken("s3cret").start()) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> get(m, SourceOptions.builder().bearerToken("s3cret").build()));
      assertEquals(
          "refusing to send the bearer token over plain http to "
              + m.uri()
              + " (tokens go over TLS only: use https:// or davs://, or --allow-insecure-token)",
          e.getMessage());
      assertEquals(0, m.requests());
      URI dav = URI.create(m.uri().toString().replace("http:", "dav:"));
      SourceOptions o = SourceOptions.builder().bearerToken("s3cret").build();
      assertThrows(IllegalArgumentException.class, () -> o.checkTokenTransport(dav));
      o.checkTokenTransport(URI.create("davs://127.0.0.1/f")); // TLS: fine
      o.checkTokenTransport(URI.create("https://127.0.0.1/f"));
    }
  }

  @Test
  void discoveredToken_plainHttp_notSent_warnedOncePerHost() throws Exception {
    try (Mirror m = Mirror.builder(src).start()) {
      Map<String, String> env = Map.of("BEARER_TOKEN", "found");
      get(m, SourceOptions.builder().environment(env).connectionsPerSource(2).build());
      assertArrayEquals(Files.readAllBytes(src), Files.readAllBytes(dir.resolve("out.bin")));
      assertTrue(m.requests() > 0);
      assertEquals(
          List.of(), m.recentHeader("Authorization").stream().filter(h -> h != null).toList());
      // the download warned about this host already; another host is warned about once
      GridEnvironment g = GridEnvironment.of(env);
      assertFalse(GridAccess.warnDiscoveredToken(m.uri(), g));
      URI other = URI.create("http://localhost:" + m.uri().getPort() + "/f");
      assertTrue(GridAccess.warnDiscoveredToken(other, g));
      assertFalse(GridAccess.warnDiscoveredToken(other, g));
      assertFalse(
          GridAccess.warnDiscoveredToken(
              URI.create("http://127.0.0.2/f"), GridEnvironment.of(Map.of())));
    }
  }

  @Test
  void bearerToken_notSentAfterRedirectFromHttpsToHttp() throws Exception {
    try (Mirror plain = Mirror.builder(src).start();
        Mirror tls =
            Mirror.builder(src).tls(serverContext(), false).redirectTo(plain.uri()).start()) {
      get(
          tls,
          SourceOptions.builder()
              .caBundle(dir.resolve("server.pem"))
              .bearerToken("s3cret")
              .header("X-Experiment", "atlas")
              .build());
      assertArrayEquals(Files.readAllBytes(src), Files.readAllBytes(dir.resolve("out.bin")));
      assertEquals("Bearer s3cret", tls.lastAuthorization());
      assertTrue(plain.requests() > 0);
      assertTrue(plain.recentHeader("Authorization").stream().allMatch(h -> h == null));
      assertTrue(plain.recentHeader("X-Experiment").stream().allMatch(h -> h == null));
    }
  }

  @Test
  void pipelined_tokenAllowedAndHeaders_areSentOnEveryRequest() throws Exception {
    try (Mirror m = Mirror.builder(src).bearerToken("s3cret").start()) {
      get(
          m,
          SourceOptions.builder()
              .bearerToken("s3cret")
              .allowInsecureToken(true)
              .header("X-Experiment", "atlas")
              .pipelining(true)
              .build());
      assertArrayEquals(Files.readAllBytes(src), Files.readAllBytes(dir.resolve("out.bin")));
      List<String> seen = m.recentHeader("X-Experiment");
      assertTrue(seen.size() > 1, seen.toString());
      assertEquals(List.of("atlas"), seen.stream().distinct().toList());
    }
  }

  @Test
  void https_caBundleTrustsTheServer() throws Exception {
    try (Mirror m = Mirror.builder(src).tls(serverContext(), false).start()) {
      assertTrue(m.uri().toString().startsWith("https://127.0.0.1:"));
      get(m, SourceOptions.builder().caBundle(dir.resolve("server.pem")).build());
      assertArrayEquals(Files.readAllBytes(src), Files.readAllBytes(dir.resolve("out.bin")));
      DownloadException e =
          assertThrows(DownloadException.class, () -> get(m, SourceOptions.DEFAULT));
      assertTrue(e.getMessage().contains("TLS handshake failed"), e.getMessage());
    }
  }

  @Test
  void https_clientCertificateWhenServerRequiresOne() throws Exception {
    try (Mirror m = Mirror.builder(src).tls(serverContext(), true).start()) {
      get(
          m,
          SourceOptions.builder()
              .caBundle(dir.resolve("server.pem"))
              .clientCertificate(dir.resolve("client.p12"), "changeit")
              .build());
      assertArrayEquals(Files.readAllBytes(src), Files.readAllBytes(dir.resolve("out.bin")));
      assertThrows(
          DownloadException.class,
          () -> get(m, SourceOptions.builder().caBundle(dir.resolve("server.pem")).build()));
    }
  }

  @Test
  void badCaBundle_isRejectedWithItsName() throws Exception {
    Path bad = Files.writeString(dir.resolve("bad.pem"), "not a certificate\n");
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new HttpRangeSource(
                    java.net.URI.create("https://127.0.0.1:1/f"),
                    SourceOptions.builder().caBundle(bad).build()));
    assertTrue(e.getMessage().equals("no certificate in CA bundle " + bad), e.getMessage());
  }
}
