package org.braid.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

class RealComponentTest {

  @TempDir Path dir;

  @Test
  void unavailable_underCi_failsNamingTheInstallCommand() {
    AssertionFailedError e =
        assertThrows(
            AssertionFailedError.class,
            () ->
                RealComponent.unavailable(
                    "xrootd is not installed", "apt-get install xrootd", true));
    assertEquals(
        "xrootd is not installed; install it with: apt-get install xrootd"
            + " (CI=true: a missing component fails the test)",
        e.getMessage());
  }

  @Test
  void unavailable_outsideCi_abortsNamingTheInstallCommand() {
    TestAbortedException e =
        assertThrows(
            TestAbortedException.class,
            () ->
                RealComponent.unavailable(
                    "slapd is not installed", "apt-get install slapd", false));
    assertEquals("slapd is not installed; install it with: apt-get install slapd", e.getMessage());
  }

  @Test
  void executable_missing_namesTheDebianPackage() {
    // Whichever way this run ends a test (CI or not), the message says what to install.
    Throwable e =
        assertThrows(
            Throwable.class, () -> RealComponent.executable("braid-no-such-program", "braid-pkg"));
    assertEquals(
        RealComponent.ci() ? AssertionFailedError.class : TestAbortedException.class, e.getClass());
    assertTrue(
        e.getMessage()
            .contains(
                "braid-no-such-program is not installed; install it with: apt-get install"
                    + " braid-pkg"),
        e.getMessage());
  }

  @Test
  void find_takesTheFirstExecutableFileInOrder() throws Exception {
    Path a = Files.createDirectories(dir.resolve("a"));
    Path b = Files.createDirectories(dir.resolve("b"));
    Path c = Files.createDirectories(dir.resolve("c"));
    Files.writeString(a.resolve("tool"), "not executable");
    Files.createDirectories(b.resolve("tool")); // a directory, not a program
    Path real = Files.writeString(c.resolve("tool"), "#!/bin/sh\n");
    Files.setPosixFilePermissions(real, PosixFilePermissions.fromString("rwxr-xr-x"));
    assertEquals(Optional.of(real), RealComponent.find("tool", List.of(a, b, c)));
    assertEquals(Optional.empty(), RealComponent.find("other", List.of(a, b, c)));
  }

  @Test
  void find_pathInsteadOfName_isRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> RealComponent.find("/usr/sbin/nginx", List.of(dir)));
    assertEquals("executable name must be a plain file name: /usr/sbin/nginx", e.getMessage());
  }

  @Test
  void searchPath_endsWithTheSystemDirectories() {
    List<Path> dirs = RealComponent.searchPath();
    assertEquals(
        RealComponent.SYSTEM_DIRS,
        dirs.subList(dirs.size() - RealComponent.SYSTEM_DIRS.size(), dirs.size()));
  }
}
