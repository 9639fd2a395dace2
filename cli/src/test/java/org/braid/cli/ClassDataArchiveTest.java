package org.braid.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The jar marks the launcher's archive stale when the JVM does not share classes from it. */
class ClassDataArchiveTest {
  @TempDir Path dir;

  @Test
  void sharingOff_marksTheArchiveStale() {
    Path jsa = dir.resolve("braid.jar.jsa");
    assertTrue(ClassDataArchive.markStaleIfUnused(jsa.toString(), "mixed mode"));
    assertTrue(Files.exists(dir.resolve("braid.jar.jsa.stale")));
  }

  @Test
  void sharingOn_orNoArchive_marksNothing() {
    Path jsa = dir.resolve("braid.jar.jsa");
    assertFalse(ClassDataArchive.markStaleIfUnused(jsa.toString(), "mixed mode, sharing"));
    assertFalse(ClassDataArchive.markStaleIfUnused(jsa.toString(), "interpreted mode, sharing"));
    assertFalse(ClassDataArchive.markStaleIfUnused("", "mixed mode"));
    assertFalse(Files.exists(dir.resolve("braid.jar.jsa.stale")));
  }

  @Test
  void anUnwritableCache_isLeftAsItIs() {
    assertFalse(
        ClassDataArchive.markStaleIfUnused(
            dir.resolve("no/such/dir/braid.jar.jsa").toString(), "mixed mode"));
  }
}
