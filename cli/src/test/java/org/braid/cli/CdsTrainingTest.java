package org.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launcher's HTTP dataset run for the class-data archive fetches its dataset. */
class CdsTrainingTest {
  @TempDir Path dir;

  @Test
  void run_fetchesTwoFilesFromLocalMirrors_underItsDirectoryOnly() throws Exception {
    assertEquals(0, CdsTraining.run(dir));
    assertEquals(1 << 16, Files.size(dir.resolve("out/d0/f0.bin")));
    assertEquals(2 << 16, Files.size(dir.resolve("out/d1/f1.bin")));
    assertTrue(Files.isRegularFile(dir.resolve("list.txt")));
  }
}
