package org.braid.packaging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Debian package: its control data and file list as dpkg-deb reads them, the service unit as
 * systemd-analyze reads it, the postinst's user creation, and the provider run from the package
 * unpacked (dpkg-deb -x) into a temporary root that is then made read-only.
 */
class DebianPackageTest {

  private static final String UNIT = "/lib/systemd/system/braid-provider.service";

  @TempDir Path tmp;
  private Path deb;
  private Path dpkgDeb;

  @BeforeEach
  void find() throws IOException {
    deb = Install.built("braid_*_all.deb");
    dpkgDeb = Install.tool("dpkg-deb", "dpkg");
  }

  @AfterEach
  void writable() throws IOException {
    Install.chmodWritable(tmp);
  }

  private String dpkgDeb(String... args) throws Exception {
    List<String> c = new ArrayList<>(List.of(dpkgDeb.toString()));
    c.addAll(List.of(args));
    return Install.run(c);
  }

  @Test
  void info_namesThePackageItsJavaAndItsMaintainerScripts() throws Exception {
    assertEquals("braid\n", dpkgDeb("-f", deb.toString(), "Package"));
    assertEquals("all\n", dpkgDeb("-f", deb.toString(), "Architecture"));
    assertTrue(dpkgDeb("-f", deb.toString(), "Version").matches("\\d+\\.\\d+\\.\\d+\\S*\n"));
    String depends = dpkgDeb("-f", deb.toString(), "Depends");
    assertTrue(depends.contains("java17-runtime-headless"), depends);
    assertTrue(depends.contains("adduser"), depends);
    String info = dpkgDeb("--info", deb.toString());
    for (String s : List.of("postinst", "prerm", "postrm", "conffiles")) {
      assertTrue(info.contains(" " + s), s + " in\n" + info);
    }
    Path ctrl = tmp.resolve("DEBIAN");
    dpkgDeb("-e", deb.toString(), ctrl.toString());
    assertEquals(
        List.of(
            "/etc/braid/provider.yaml",
            "/etc/braid/logback.xml",
            "/etc/ldap/schema/braid-figure3.schema",
            "/etc/ldap/schema/braid-figure3.ldif"),
        Files.readAllLines(ctrl.resolve("conffiles")));
    for (String s : List.of("postinst", "prerm", "postrm")) {
      assertTrue(Files.isExecutable(ctrl.resolve(s)), s + " is executable");
      Install.run(List.of("/bin/sh", "-n", ctrl.resolve(s).toString()));
    }
  }

  @Test
  void contents_installToStandardPaths() throws Exception {
    String contents = dpkgDeb("--contents", deb.toString());
    for (String line :
        List.of(
            "-rw-r--r-- root/root .* \\./usr/share/braid/lib/braid\\.jar",
            "-rw-r--r-- root/root .* \\./usr/share/braid/lib/launcher\\.sh",
            "-rwxr-xr-x root/root .* \\./usr/share/braid/bin/braid",
            "l\\S+ root/root .* \\./usr/bin/braid -> \\.\\./share/braid/bin/braid",
            "l\\S+ root/root .* \\./usr/share/braid/etc -> \\.\\./\\.\\./\\.\\./etc/braid",
            "-rw-r--r-- root/root .* \\./etc/braid/provider\\.yaml",
            "-rw-r--r-- root/root .* \\./etc/braid/logback\\.xml",
            "-rw-r--r-- root/root .* \\./etc/ldap/schema/braid-figure3\\.schema",
            "-rw-r--r-- root/root .* \\./etc/ldap/schema/braid-figure3\\.ldif",
            "-rw-r--r-- root/root .* \\." + UNIT.replace(".", "\\."),
            "d\\S+ root/root .* \\./var/lib/braid-provider/",
            "-rw-r--r-- root/root .* \\./usr/share/doc/braid/provider\\.md")) {
      assertTrue(
          contents.lines().anyMatch(l -> l.matches(line)),
          "no line /" + line + "/ in\n" + contents);
    }
  }

  /** The package unpacked into {@code root}, as dpkg would place it. */
  private Path unpacked() throws Exception {
    Path root = Files.createDirectories(tmp.resolve("root"));
    dpkgDeb("-x", deb.toString(), root.toString());
    return root;
  }

  @Test
  void ldapSchema_besideTheSchemasSlapdIncludes_isTheProvidersOwn() throws Exception {
    Path schemaDir = unpacked().resolve("etc/ldap/schema");
    for (Map.Entry<String, byte[]> f : Install.ldapSchema().entrySet()) {
      assertArrayEquals(
          f.getValue(), Files.readAllBytes(schemaDir.resolve(f.getKey())), f.getKey());
    }
  }

  @Test
  void provider_fromReadOnlyUnpackedPackage_servesAdsOfItsLog() throws Exception {
    Path root = unpacked();
    Path work = Files.createDirectories(tmp.resolve("work"));
    // the admin's step: edit /etc/braid/provider.yaml (here a copy outside the read-only root)
    Path config = InstalledProvider.configFrom(root.resolve("etc/braid/provider.yaml"), work);
    Install.chmodReadOnly(root);
    Map<String, String> before = Install.snapshot(root);
    List<String> cmd =
        List.of(
            root.resolve("usr/bin/braid").toString(), "provider", "serve", "--config", "" + config);
    // /usr/share/braid/etc leads to the root's own etc/braid, so the shipped logback.xml applies
    Map<String, String> env =
        Map.of(
            "BRAID_LOG", "info",
            "BRAID_LOG_CONFIG", root.resolve("usr/share/braid/etc/logback.xml").toString(),
            "BRAID_CDS", "0");
    List<Map<String, Object>> ads;
    String stderr;
    try (InstalledProvider p = InstalledProvider.start(Install.readOnly(root, cmd), env, work)) {
      ads = p.adsOnceImported();
      assertTrue(p.stop(), "stops on SIGTERM:\n" + p.stdout() + p.stderr());
      stderr = p.stderr();
    }
    assertEquals(1, ads.size(), ads.toString());
    assertEquals(InstalledProvider.HOSTNAME, ads.get(0).get("hostname"));
    assertEquals("127.0.0.1", ads.get(0).get("peer"));
    TarballInstallTest.assertLogLines(stderr, "INFO  org.braid.provider.");
    assertEquals(before, Install.snapshot(root), "nothing written inside the root");
  }

  @Test
  void unit_isAcceptedBySystemdAnalyzeVerify() throws Exception {
    Path analyze = Install.tool("systemd-analyze", "systemd");
    Path root = unpacked();
    // the unit's dependencies (sysinit.target, network-online.target, ...) come from the host
    Path units = root.resolve("lib/systemd/system");
    for (Path host : List.of(Path.of("/lib/systemd/system"), Path.of("/usr/lib/systemd/system"))) {
      if (Files.isDirectory(host)) {
        Install.run(List.of("cp", "-an", host + "/.", units.toString()));
      }
    }
    Process p =
        new ProcessBuilder(analyze.toString(), "verify", "--root=" + root, UNIT)
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes());
    assertTrue(p.waitFor(2, TimeUnit.MINUTES));
    assertEquals(0, p.exitValue(), out);
    // verify warns about settings it ignores (a typo, a bad value) without failing
    assertTrue(
        out.lines().noneMatch(l -> l.contains("braid-provider.service")),
        "systemd-analyze verify reports:\n" + out);
  }

  @Test
  void postinst_createsTheSystemUserOnce_andOwnsTheStateDirectoryToIt() throws Exception {
    Path ctrl = tmp.resolve("DEBIAN");
    dpkgDeb("-e", deb.toString(), ctrl.toString());
    // every command the script runs is a stub that records its arguments; PATH holds nothing
    // else, so the script cannot touch this machine's users or files
    Path stubs = Files.createDirectories(tmp.resolve("stubs"));
    Path calls = tmp.resolve("calls");
    for (String c : List.of("adduser", "chown", "chmod", "systemctl", "getent")) {
      String body =
          c.equals("getent")
              ? "echo \"$0 $*\" >>" + calls + "; [ -f " + tmp.resolve("user-exists") + " ]\n"
              : "echo \"$0 $*\" >>" + calls + "\n";
      Path stub = Files.writeString(stubs.resolve(c), "#!/bin/sh\n" + body);
      Files.setPosixFilePermissions(stub, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    String first = postinst(ctrl, stubs, calls);
    assertTrue(
        first.lines().anyMatch(l -> l.matches(".*/adduser .*--system .*--group .* braid")), first);
    Files.createFile(tmp.resolve("user-exists"));
    String again = postinst(ctrl, stubs, calls);
    assertTrue(again.lines().noneMatch(l -> l.contains("/adduser ")), again);
  }

  private static String postinst(Path ctrl, Path stubs, Path calls) throws Exception {
    Files.deleteIfExists(calls);
    ProcessBuilder pb =
        new ProcessBuilder("/bin/sh", ctrl.resolve("postinst").toString(), "configure", "");
    pb.environment().clear();
    pb.environment().put("PATH", stubs.toString());
    String out = Install.run(pb);
    return (Files.exists(calls) ? Files.readString(calls) : "") + out;
  }
}
