package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DownloadPrepareTest {
  @TempDir Path dir;

  private static Set<String> threads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(Thread::isAlive)
        .map(Thread::getName)
        .collect(Collectors.toSet());
  }

  @Test
  void prepare_leavesNoThreadOrFile_andDownloadsWorkAfterIt() throws Exception {
    Set<String> before = threads();
    Download.prepare();
    Download.prepare(); // repeatable
    Set<String> after = threads();
    after.removeAll(before);
    assertEquals(Set.of(), after, "threads left running");
    try (var files = Files.list(dir)) {
      assertEquals(0, files.count());
    }
    byte[] data = new byte[100_000];
    for (int i = 0; i < data.length; i++) {
      data[i] = (byte) (i * 31);
    }
    Path src = Files.write(dir.resolve("src.bin"), data);
    Path out = dir.resolve("out.bin");
    Download.builder().sources(List.of(src.toUri())).output(out).journal(null).build().run();
    assertArrayEquals(data, Files.readAllBytes(out));
  }
}
