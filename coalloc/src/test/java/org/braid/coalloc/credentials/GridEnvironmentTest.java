package org.braid.coalloc.credentials;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The environment read as the grid tools read it (files at /tmp are in the system tests). */
class GridEnvironmentTest {
  @TempDir Path dir;

  static GridEnvironment env(String... kv) {
    java.util.HashMap<String, String> m = new java.util.HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return GridEnvironment.of(m);
  }

  @Test
  void token_wlcgOrder_variableThenFileThenRuntimeDir() throws Exception {
    Path file = Files.writeString(dir.resolve("t"), "  from-file\n");
    Path xdg = Files.createDirectories(dir.resolve("xdg"));
    Files.writeString(xdg.resolve("bt_u" + GridEnvironment.currentUid()), "from-xdg\n");
    String f = file.toString();
    String x = xdg.toString();
    assertEquals(
        "from-env",
        env("BEARER_TOKEN", " from-env ", "BEARER_TOKEN_FILE", f, "XDG_RUNTIME_DIR", x)
            .bearerToken()
            .value());
    assertEquals(
        "from-file", env("BEARER_TOKEN_FILE", f, "XDG_RUNTIME_DIR", x).bearerToken().value());
    GridEnvironment.Token t = env("XDG_RUNTIME_DIR", x).bearerToken();
    assertEquals("from-xdg", t.value());
    assertTrue(t.from().endsWith("bt_u" + GridEnvironment.currentUid()), t.from());
    assertTrue(!t.toString().contains("from-xdg"), "the token itself is never printed");
  }

  @Test
  void token_badFiles_clearErrors() throws Exception {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> env("BEARER_TOKEN_FILE", dir.resolve("none").toString()).bearerToken());
    assertTrue(
        e.getMessage().startsWith("BEARER_TOKEN_FILE=" + dir.resolve("none")), e.getMessage());
    Path empty = Files.writeString(dir.resolve("empty"), "\n");
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> env("BEARER_TOKEN_FILE", empty.toString()).bearerToken());
    assertTrue(e.getMessage().contains("empty"), e.getMessage());
    Path text = Files.writeString(dir.resolve("text"), "not a token\n");
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> env("BEARER_TOKEN_FILE", text.toString()).bearerToken());
    assertTrue(e.getMessage().contains("not a token"), e.getMessage());
  }

  @Test
  void x509Variables_mustNameWhatTheySay() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> env("X509_USER_PROXY", dir.resolve("x509up").toString()).userProxy());
    assertTrue(e.getMessage().startsWith("X509_USER_PROXY="), e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> env("X509_CERT_DIR", dir.resolve("none").toString()).caDirectory());
    assertTrue(e.getMessage().endsWith("not a directory"), e.getMessage());
    assertEquals(dir, env("X509_CERT_DIR", dir.toString()).caDirectory());
    assertTrue(env().userProxyIsDefault());
    assertTrue(!env("X509_USER_PROXY", "/x").userProxyIsDefault());
  }

  @Test
  void proxies_asCurlReadsThem() {
    String p = "http://127.0.0.1:3128";
    assertEquals(URI.create(p), env("http_proxy", p).proxyFor("http", "h.org"));
    assertNull(env("HTTP_PROXY", p).proxyFor("http", "h.org"), "HTTP_PROXY is ignored");
    assertNull(env("http_proxy", p).proxyFor("https", "h.org"));
    assertEquals(URI.create(p), env("HTTPS_PROXY", p).proxyFor("https", "h.org"));
    assertEquals(
        URI.create(p), env("https_proxy", p, "HTTPS_PROXY", "other:1").proxyFor("https", "h.org"));
    assertEquals(URI.create(p), env("all_proxy", p).proxyFor("https", "h.org"));
    assertEquals(
        URI.create("http://proxy:8080"), env("http_proxy", "proxy:8080").proxyFor("http", "h"));
    assertNull(env("http_proxy", p, "no_proxy", ".org").proxyFor("http", "h.org"));
    assertNull(env("http_proxy", p, "NO_PROXY", "h.org").proxyFor("http", "h.org"));
    assertNull(env("http_proxy", p).proxyFor("gsiftp", "h.org"));
  }

  @Test
  void proxies_unsupportedKinds_clearErrors() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> env("https_proxy", "socks5://127.0.0.1:1080").proxyFor("https", "h.org"));
    assertEquals(
        "https_proxy=socks5://127.0.0.1:1080: only http:// proxies are supported (host and port)",
        e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> env("http_proxy", "http://u:secret@127.0.0.1:3128").proxyFor("http", "h.org"));
    assertTrue(e.getMessage().contains("not supported"), e.getMessage());
    assertTrue(!e.getMessage().contains("secret"), "the password is not printed");
  }
}
