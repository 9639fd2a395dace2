package org.braid.system;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.zip.Adler32;
import org.braid.coalloc.Checksum;
import org.braid.coalloc.Download;
import org.braid.coalloc.DownloadReport;
import org.braid.coalloc.RangeSource;
import org.braid.coalloc.Scheme;
import org.braid.coalloc.SourceException;
import org.braid.coalloc.SourceOptions;
import org.braid.coalloc.xrootd.XrootdRangeSource;
import org.braid.testkit.NginxServer;
import org.braid.testkit.XrootdServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Downloads from real xrootd servers on 127.0.0.1: an anonymous one publishing adler32, one that
 * requires {@code unix} authentication and publishes adler32 and md5, and a redirector that sends
 * every open to the second. Fails under CI=true when xrootd is missing, else skips.
 */
class XrootdDownloadTest {
  static final int SIZE = 5_000_000;
  @TempDir static Path dir;
  static Path data;
  static byte[] bytes;
  static XrootdServer anonymous;
  static XrootdServer unix;
  static XrootdServer redirector;
  static XrootdServer tls;
  static Path certificate;
  static NginxServer nginx;

  @BeforeAll
  static void start() throws Exception {
    XrootdServer.binary();
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path www = Files.createDirectories(dir.resolve("www"));
    Files.setPosixFilePermissions(www, PosixFilePermissions.fromString("rwxr-xr-x"));
    data = www.resolve("data.bin");
    bytes = new byte[SIZE];
    new SplittableRandom(1094).nextBytes(bytes);
    try (OutputStream o = Files.newOutputStream(data)) {
      o.write(bytes);
    }
    Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rw-r--r--"));
    Path work = dir.resolve("servers");
    anonymous = XrootdServer.builder(work, www).directives("xrootd.chksum adler32").start();
    unix =
        XrootdServer.builder(work, www)
            .directives(
                "xrootd.seclib libXrdSec.so",
                "sec.protocol unix",
                "xrootd.chksum max 2 adler32 md5")
            .start();
    redirector =
        XrootdServer.builder(work, www)
            .directives("xrootd.redirect 127.0.0.1:" + unix.port() + " " + www)
            .start();
    certificate = dir.resolve("tls/cert.pem");
    Path key = SelfSignedTls.selfSigned(dir.resolve("tls"), "127.0.0.1");
    tls = XrootdServer.builder(work, www).tls(certificate, key).start();
    nginx = NginxServer.builder(dir.resolve("nginx")).server(www, "2m").start();
  }

  @AfterAll
  static void stop() {
    for (AutoCloseable c : new AutoCloseable[] {anonymous, unix, redirector, tls, nginx}) {
      try {
        if (c != null) {
          c.close();
        }
      } catch (Exception e) {
        // best effort
      }
    }
  }

  private static DownloadReport get(String name, Scheme scheme, URI... sources) throws Exception {
    return Download.builder()
        .sources(List.of(sources))
        .output(dir.resolve(name))
        .scheme(scheme)
        .journal(dir.resolve("journal.jsonl"))
        .build()
        .run();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"adaptive", "single", "brute", "conservative", "aggressive"})
  void everyScheme_xrootdAndNginx_yieldsByteIdenticalFile(String scheme) throws Exception {
    DownloadReport r =
        get(
            "out-" + scheme,
            Scheme.parse(scheme, 6),
            anonymous.uri(data),
            unix.uri(data),
            nginx.uri(0, "data.bin"));
    assertArrayEquals(bytes, Files.readAllBytes(dir.resolve("out-" + scheme)));
    assertEquals(SIZE, r.replicas().stream().mapToLong(p -> p.bytes()).sum());
    assertTrue(Files.readString(dir.resolve("journal.jsonl")).contains("\"protocol\":\"root\""));
  }

  @Test
  void unixAuthentication_serverLogsTheUser() throws Exception {
    get("out-unix", Scheme.parse("single", 1), unix.uri(data));
    assertArrayEquals(bytes, Files.readAllBytes(dir.resolve("out-unix")));
    String user = System.getProperty("user.name");
    assertTrue(
        Files.readString(unix.log()).contains("login as " + user),
        "no unix login of " + user + " in " + unix.log());
  }

  @Test
  void redirector_sendsTheOpenToTheDataServer() throws Exception {
    long before = logins(unix);
    DownloadReport r = get("out-redirect", Scheme.conservative(4), redirector.uri(data));
    assertArrayEquals(bytes, Files.readAllBytes(dir.resolve("out-redirect")));
    assertEquals(4, r.replicas().get(0).blocks());
    assertTrue(logins(unix) > before, "the data server saw no login after the redirect");
    assertTrue(logins(redirector) > 0, "the redirector saw no login");
  }

  private static long logins(XrootdServer s) throws Exception {
    return Files.readAllLines(s.log()).stream().filter(l -> l.contains(" login")).count();
  }

  @Test
  void roots_switchesToTlsAndChecksTheCertificate() throws Exception {
    Path out = dir.resolve("out-tls");
    Download.builder()
        .sources(List.of(tls.uri("roots", data)))
        .output(out)
        .sourceOptions(SourceOptions.builder().caBundle(certificate).build())
        .journal(dir.resolve("journal.jsonl"))
        .build()
        .run();
    assertArrayEquals(bytes, Files.readAllBytes(out));
    assertTrue(Files.readString(tls.log()).contains("TLSv1.3 login"), "no TLS login in the log");
    assertTrue(Files.readString(dir.resolve("journal.jsonl")).contains("\"protocol\":\"roots\""));
    try (RangeSource untrusted = RangeSource.of(tls.uri("roots", data), SourceOptions.DEFAULT)) {
      SourceException e = assertThrows(SourceException.class, untrusted::probe);
      assertTrue(e.getMessage().contains("PKIX"), e.getMessage());
    }
  }

  @Test
  void checksumQuery_answersTheFilesAdler32AndMd5() throws Exception {
    Adler32 adler = new Adler32();
    adler.update(bytes);
    String md5 = HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(bytes));
    try (XrootdRangeSource a =
            (XrootdRangeSource) RangeSource.of(anonymous.uri(data), SourceOptions.DEFAULT);
        XrootdRangeSource u =
            (XrootdRangeSource) RangeSource.of(redirector.uri(data), SourceOptions.DEFAULT)) {
      assertEquals(
          Optional.of(new Checksum("adler32", String.format("%08x", adler.getValue()))),
          a.checksum(null));
      assertEquals(Optional.of(new Checksum("md5", md5)), u.checksum("md5"));
    }
  }

  @Test
  void missingFile_isDroppedWithTheServersError() throws Exception {
    DownloadReport r =
        get(
            "out-missing",
            Scheme.parse("adaptive", 6),
            anonymous.uri(dir.resolve("www/nope.bin")),
            unix.uri(data));
    assertArrayEquals(bytes, Files.readAllBytes(dir.resolve("out-missing")));
    String dropped = r.replicas().get(0).dropped();
    assertTrue(dropped.contains("kXR_open failed") && dropped.contains("kXR_NotFound"), dropped);
  }

  @Test
  void directory_isRefusedAsNotARegularFile() throws Exception {
    try (XrootdRangeSource s =
        new XrootdRangeSource(
            anonymous.uri(dir.resolve("www")),
            SourceOptions.DEFAULT,
            () -> {
              throw new AssertionError("no TLS");
            })) {
      SourceException e = assertThrows(SourceException.class, s::probe);
      assertTrue(
          e.getMessage().contains("kXR_isDirectory")
              || e.getMessage().contains("not a" + " regular file"),
          e.getMessage());
    }
  }
}
