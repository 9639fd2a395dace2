package org.braid.coalloc.credentials;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.interfaces.ECPrivateKey;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PEM credentials and CA directories made with the real {@code openssl} command in each form
 * OpenSSL writes. The RFC 3820 proxy against a real TLS server is in GridCredentialsSystemTest.
 */
class KeyMaterialTest {
  @TempDir Path dir;

  @BeforeEach
  void needOpenssl() {
    boolean found = false;
    for (String p : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      found |= Files.isExecutable(Path.of(p, "openssl"));
    }
    if (!found && "true".equals(System.getenv("CI"))) {
      fail("openssl is not on the PATH (CI=true: a missing component fails the test)");
    }
    Assumptions.assumeTrue(found, "openssl is not on the PATH: apt-get install openssl");
  }

  private void openssl(String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("openssl"));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, cmd + ":\n" + out);
  }

  private void selfSigned(String key, String cert, String... newkey) throws Exception {
    List<String> a = new ArrayList<>(List.of("req", "-x509", "-nodes", "-days", "1"));
    a.addAll(List.of(newkey));
    a.addAll(List.of("-keyout", key, "-out", cert, "-subj", "/CN=" + cert));
    openssl(a.toArray(new String[0]));
  }

  private Path concat(String name, String... files) throws Exception {
    StringBuilder sb = new StringBuilder();
    for (String f : files) {
      sb.append(Files.readString(dir.resolve(f)));
    }
    return Files.writeString(dir.resolve(name), sb);
  }

  @Test
  void rsa_pkcs1AndPkcs8_inOneFileOrTwo() throws Exception {
    selfSigned("k8.pem", "c.pem", "-newkey", "rsa:2048");
    openssl("rsa", "-in", "k8.pem", "-traditional", "-out", "k1.pem");
    assertTrue(Files.readString(dir.resolve("k1.pem")).contains("BEGIN RSA PRIVATE KEY"));
    for (String k : new String[] {"k1.pem", "k8.pem"}) {
      KeyMaterial m = KeyMaterial.load(concat("both-" + k, k, "c.pem"), null, null);
      assertEquals("CN=c.pem", m.chain().get(0).getSubjectX500Principal().getName());
      KeyMaterial two = KeyMaterial.load(dir.resolve("c.pem"), dir.resolve(k), null);
      assertEquals(m.key(), two.key());
    }
  }

  @Test
  void ec_sec1AndPkcs8() throws Exception {
    selfSigned("k8.pem", "c.pem", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256");
    openssl("ec", "-in", "k8.pem", "-out", "sec1.pem");
    assertTrue(Files.readString(dir.resolve("sec1.pem")).contains("BEGIN EC PRIVATE KEY"));
    KeyMaterial a = KeyMaterial.load(concat("a.pem", "c.pem", "sec1.pem"), null, null);
    KeyMaterial b = KeyMaterial.load(concat("b.pem", "k8.pem", "c.pem"), null, null);
    assertEquals("EC", a.key().getAlgorithm());
    assertEquals(((ECPrivateKey) a.key()).getS(), ((ECPrivateKey) b.key()).getS());
  }

  @Test
  void chain_leafFoundByItsKey_thenIssuersInOrder_extraCertificatesLeftOut() throws Exception {
    selfSigned("ca.key", "ca.pem", "-newkey", "rsa:2048");
    openssl(
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "u.key",
        "-out",
        "u.csr",
        "-subj",
        "/CN=user");
    openssl(
        "x509",
        "-req",
        "-in",
        "u.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-set_serial",
        "7",
        "-days",
        "1",
        "-out",
        "u.pem");
    selfSigned("o.key", "other.pem", "-newkey", "rsa:2048");
    // issuer first, an unrelated certificate, the leaf last, the key in between
    KeyMaterial m =
        KeyMaterial.load(concat("f.pem", "ca.pem", "other.pem", "u.key", "u.pem"), null, null);
    assertEquals(2, m.chain().size());
    assertEquals("CN=user", m.chain().get(0).getSubjectX500Principal().getName());
    assertEquals("CN=ca.pem", m.chain().get(1).getSubjectX500Principal().getName());
  }

  @Test
  void badCredentials_oneLineErrorsNamingTheFile() throws Exception {
    selfSigned("k.pem", "c.pem", "-newkey", "rsa:2048");
    selfSigned("k2.pem", "c2.pem", "-newkey", "rsa:2048");
    Path wrong = concat("wrong.pem", "c.pem", "k2.pem");
    assertError(wrong, null, wrong + ": no certificate matches the private key");
    Path certOnly = dir.resolve("c.pem");
    assertError(certOnly, null, certOnly + ": no private key");
    openssl("pkey", "-in", "k.pem", "-aes256", "-passout", "pass:x", "-out", "enc.pem");
    Path enc = concat("enc-both.pem", "c.pem", "enc.pem");
    assertError(enc, null, enc + ": the private key is encrypted");
    Path garbage = Files.writeString(dir.resolve("g.p12"), "not a credential");
    assertError(garbage, null, "cannot read client certificate " + garbage + " as PEM or PKCS#12");
    assertError(
        dir.resolve("none.pem"), null, "cannot read client certificate " + dir.resolve("none.pem"));
  }

  private static void assertError(Path cert, Path key, String start) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> KeyMaterial.load(cert, key, null));
    assertTrue(e.getMessage().startsWith(start), e.getMessage());
    assertTrue(!e.getMessage().contains("\n"), e.getMessage());
  }

  @Test
  void pkcs12_stillRead() throws Exception {
    selfSigned("k.pem", "c.pem", "-newkey", "rsa:2048");
    openssl(
        "pkcs12",
        "-export",
        "-in",
        "c.pem",
        "-inkey",
        "k.pem",
        "-out",
        "c.p12",
        "-passout",
        "pass:pw");
    KeyMaterial m = KeyMaterial.load(dir.resolve("c.p12"), null, "pw");
    assertEquals("CN=c.pem", m.chain().get(0).getSubjectX500Principal().getName());
  }

  @Test
  void caDirectory_hashedNames_orPemFiles_orAClearError() throws Exception {
    selfSigned("a.key", "a.pem", "-newkey", "rsa:2048");
    selfSigned("b.key", "b.pem", "-newkey", "rsa:2048");
    Path hashed = Files.createDirectories(dir.resolve("certificates"));
    Files.copy(dir.resolve("a.pem"), hashed.resolve("a.pem"));
    Files.copy(dir.resolve("b.pem"), hashed.resolve("b.pem"));
    Files.writeString(hashed.resolve("a.signing_policy"), "junk that is not read");
    Files.writeString(hashed.resolve("a.namespaces"), "junk");
    assertEquals(2, TrustMaterial.load(hashed).size(), "*.pem when there is no hashed name");
    openssl("rehash", hashed.toString());
    Files.delete(hashed.resolve("b.pem")); // its hashed link now dangles
    assertEquals(1, TrustMaterial.load(hashed).size());
    assertEquals(1, TrustMaterial.load(dir.resolve("a.pem")).size());
    Path empty = Files.createDirectories(dir.resolve("empty"));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> TrustMaterial.load(empty));
    assertTrue(e.getMessage().contains("openssl rehash " + empty), e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class, () -> TrustMaterial.load(dir.resolve("none.pem")));
    assertEquals(
        "cannot read CA certificates " + dir.resolve("none.pem") + ": no such file",
        e.getMessage());
  }
}
