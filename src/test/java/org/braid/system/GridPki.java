package org.braid.system;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.braid.testkit.RealComponent;

/**
 * A test PKI made with the real {@code openssl} command: a CA in a directory of OpenSSL hashed
 * names ({@code openssl rehash}, as {@code /etc/grid-security/certificates}, no {@code
 * .signing_policy}), a server certificate for 127.0.0.1 and localhost, a user certificate, and an
 * RFC 3820 proxy of it in the layout {@code voms-proxy-init} writes (proxy certificate, its PKCS#1
 * key, the user's certificate, in one file).
 */
final class GridPki {
  /** The user's distinguished name; the proxy's adds {@code CN=4242}. */
  static final String USER_DN = "/DC=org/DC=braid-test/CN=Grid User";

  final Path dir;
  final Path caDir;
  final Path serverCert;
  final Path serverKey;
  final Path userCert;
  final Path userKey;
  final Path proxy;
  private final Path openssl;

  private GridPki(Path dir) {
    this.dir = dir;
    this.caDir = dir.resolve("certificates");
    this.serverCert = dir.resolve("server.pem");
    this.serverKey = dir.resolve("server.key");
    this.userCert = dir.resolve("usercert.pem");
    this.userKey = dir.resolve("userkey.pem");
    this.proxy = dir.resolve("x509up");
    this.openssl = RealComponent.executable("openssl", "openssl");
  }

  /** Makes every file in {@code dir}. */
  static GridPki create(Path dir) throws Exception {
    Files.createDirectories(dir);
    GridPki p = new GridPki(dir);
    p.make();
    return p;
  }

  private void make() throws Exception {
    Files.writeString(
        dir.resolve("ext.cnf"),
        String.join(
            "\n",
            "[req]",
            "distinguished_name=dn",
            "[dn]",
            "[ca]",
            "basicConstraints=critical,CA:TRUE",
            "keyUsage=critical,keyCertSign,cRLSign",
            "subjectKeyIdentifier=hash",
            "[server]",
            "basicConstraints=critical,CA:FALSE",
            "keyUsage=critical,digitalSignature,keyEncipherment",
            "extendedKeyUsage=serverAuth",
            "subjectAltName=DNS:localhost,IP:127.0.0.1",
            "[user]",
            "basicConstraints=critical,CA:FALSE",
            "keyUsage=critical,digitalSignature,keyEncipherment",
            "extendedKeyUsage=clientAuth",
            "[proxy]",
            "basicConstraints=critical,CA:FALSE",
            "keyUsage=critical,digitalSignature,keyEncipherment",
            "proxyCertInfo=critical,language:id-ppl-inheritAll",
            ""));
    run(
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "ca.key",
        "-out",
        "ca.pem",
        "-days",
        "2",
        "-subj",
        "/DC=org/DC=braid-test/CN=Braid Test CA",
        "-config",
        "ext.cnf",
        "-extensions",
        "ca");
    signed("server", "/CN=localhost", "ca.pem", "ca.key", "server");
    signed("usercert", USER_DN, "ca.pem", "ca.key", "user");
    Files.move(dir.resolve("usercert.key"), userKey);
    // the proxy: the user's DN plus one CN, signed by the user's key (RFC 3820)
    signed("proxy", USER_DN + "/CN=4242", "usercert.pem", "userkey.pem", "proxy");
    run("rsa", "-in", "proxy.key", "-traditional", "-out", "proxy-pkcs1.key");
    Files.writeString(
        proxy,
        Files.readString(dir.resolve("proxy.pem"))
            + Files.readString(dir.resolve("proxy-pkcs1.key"))
            + Files.readString(userCert));
    Files.setPosixFilePermissions(proxy, PosixFilePermissions.fromString("rw-------"));
    Files.createDirectories(caDir);
    Files.copy(dir.resolve("ca.pem"), caDir.resolve("braid-test-ca.pem"));
    run("rehash", caDir.toString());
    try (var s = Files.list(caDir)) {
      assertTrue(
          s.anyMatch(f -> f.getFileName().toString().matches("[0-9a-f]{8}\\.0")),
          "openssl rehash made no hashed name in " + caDir);
    }
  }

  private void signed(String name, String subject, String ca, String caKey, String ext)
      throws Exception {
    run(
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        name + ".key",
        "-out",
        name + ".csr",
        "-subj",
        subject,
        "-config",
        "ext.cnf");
    run(
        "x509",
        "-req",
        "-in",
        name + ".csr",
        "-CA",
        ca,
        "-CAkey",
        caKey,
        "-set_serial",
        Long.toString(System.nanoTime() & 0xffffff),
        "-days",
        "1",
        "-out",
        name + ".pem",
        "-extfile",
        "ext.cnf",
        "-extensions",
        ext);
  }

  private void run(String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(openssl.toString());
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "openssl timed out: " + cmd);
    assertTrue(p.exitValue() == 0, cmd + " failed:\n" + out);
  }
}
