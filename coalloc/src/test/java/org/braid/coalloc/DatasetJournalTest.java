package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The dataset journal batches the lines of many small files into few writes, and loses none. */
class DatasetJournalTest {
  @TempDir Path dir;

  @Test
  void linesAreWrittenInBatches_byAge_andAllByClose() throws Exception {
    Path j = dir.resolve("journal.jsonl");
    AtomicLong now = new AtomicLong();
    DatasetJournal journal = new DatasetJournal(j, now::get);
    journal.add("a\n");
    journal.add("b\n");
    assertFalse(Files.exists(j), "kept until the batch is a second old or large");
    now.addAndGet(1_000_000_000L);
    journal.add("c\n");
    assertEquals(List.of("a", "b", "c"), Files.readAllLines(j));
    journal.add("d\n");
    journal.close();
    assertEquals(List.of("a", "b", "c", "d"), Files.readAllLines(j));
  }

  @Test
  void aLargeBatch_isWrittenAtOnce() throws Exception {
    Path j = dir.resolve("journal.jsonl");
    DatasetJournal journal = new DatasetJournal(j, () -> 0);
    String line = "x".repeat(1000) + "\n";
    for (int i = 0; i < 70; i++) {
      journal.add(line);
    }
    assertEquals(66, Files.readAllLines(j).size(), "the first 64 KiB batch");
    journal.close();
    assertEquals(70, Files.readAllLines(j).size());
  }
}
