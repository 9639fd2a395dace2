package org.braid.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The launcher's class-data archive seen from inside the JVM. The launcher uses an archive newer
 * than the jar and the java binary without looking further (cli/src/dist/lib/launcher.sh, {@code
 * braid_cds}), and names it in the system property {@value #PROPERTY}; the JVM ignores an archive
 * that does not match the jar or itself, silently. When sharing is then off, the archive is marked
 * stale (a file {@code ARCHIVE.stale} beside it), and the launcher records it again on its next
 * run. Stateless.
 */
final class ClassDataArchive {
  /** The system property with the archive's path, set by the launcher. */
  static final String PROPERTY = "braid.cds";

  private ClassDataArchive() {}

  /** Marks the archive the launcher named stale if this JVM does not share classes from it. */
  static void markStaleIfUnused() {
    String archive = System.getProperty(PROPERTY);
    if (archive != null) {
      markStaleIfUnused(archive, System.getProperty("java.vm.info", ""));
    }
  }

  /**
   * Marks {@code archive} stale if {@code vmInfo} (the JVM's {@code java.vm.info}, "mixed mode,
   * sharing" when it maps an archive) says sharing is off; returns whether it did. A cache that
   * cannot be written is left as it is.
   */
  static boolean markStaleIfUnused(String archive, String vmInfo) {
    if (archive.isEmpty() || vmInfo.contains("sharing")) {
      return false;
    }
    try {
      Files.write(Path.of(archive + ".stale"), new byte[0]);
      return true;
    } catch (IOException | RuntimeException e) {
      return false; // a cache: the next run is only slower
    }
  }
}
