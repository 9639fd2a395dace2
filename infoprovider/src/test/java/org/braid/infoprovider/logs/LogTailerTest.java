package org.braid.infoprovider.logs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.zip.GZIPOutputStream;
import org.braid.infoprovider.TestLines;
import org.braid.infoprovider.TransferRecord;
import org.braid.infoprovider.store.Store;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogTailerTest {

  @TempDir Path dir;
  Path log;
  Store store;

  @BeforeEach
  void setUp() throws IOException {
    log = dir.resolve("gridftp.log");
    store = openStore();
  }

  @AfterEach
  void tearDown() throws IOException {
    store.close();
  }

  private Store openStore() throws IOException {
    return Store.open(
        dir.resolve("db/provider.db"), InstantSource.fixed(TestLines.NOW), Store.DEFAULT_RETENTION);
  }

  private void append(Path f, int from, int to) throws IOException {
    StringBuilder sb = new StringBuilder();
    for (int i = from; i < to; i++) {
      sb.append(TestLines.gridftp(i)).append('\n');
    }
    Files.writeString(
        f, sb, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  /** The set of file names (one per line) stored, checking none is there twice. */
  private Set<String> stored() throws IOException {
    List<TransferRecord> all = new ArrayList<>();
    store.forEachTransfer(all::add);
    Set<String> paths = new HashSet<>();
    for (TransferRecord r : all) {
      assertTrue(paths.add(r.path()), "stored twice: " + r.path());
    }
    return paths;
  }

  private static Set<String> expected(int from, int to) {
    Set<String> s = new HashSet<>();
    for (int i = from; i < to; i++) {
      s.add("/data/f" + i + ".bin");
    }
    return s;
  }

  @Test
  void poll_growingFile_readsOnlyNewLines() throws IOException {
    LogTailer t = new LogTailer(log, LogFormat.GRIDFTP, store);
    append(log, 0, 5);
    assertEquals(5, t.poll().records());
    assertEquals(0, t.poll().records());
    append(log, 5, 8);
    assertEquals(3, t.poll().records());
    assertEquals(expected(0, 8), stored());
  }

  @Test
  void poll_byteIdenticalLines_countAsTheTransfersTheyAre_readAgainNotDoubled() throws IOException {
    // Two real transfers can log byte-identical lines (same second, size, file, client).
    String line = TestLines.gridftp(3) + "\n";
    Files.writeString(log, TestLines.gridftp(1) + "\n" + line + line + line);
    LogTailer t = new LogTailer(log, LogFormat.GRIDFTP, store);
    assertEquals(4, t.poll().records());
    List<TransferRecord> all = new ArrayList<>();
    store.forEachTransfer(all::add);
    assertEquals(4, all.size());
    assertEquals(3, all.stream().filter(r -> r.path().equals("/data/f3.bin")).count());

    // The same file read again from its start (a lost position) stores nothing new.
    store.close();
    Files.delete(dir.resolve("db/provider.db"));
    store = openStore();
    LogTailer first = new LogTailer(log, LogFormat.GRIDFTP, store);
    assertEquals(4, first.poll().records());
    LogTailer again = new LogTailer(log, LogFormat.GRIDFTP, new ForgetfulSink(store));
    again.poll();
    all.clear();
    store.forEachTransfer(all::add);
    assertEquals(4, all.size());
  }

  /** A sink that forgets every position: each poll reads the files from their start. */
  private record ForgetfulSink(Store store) implements TailSink {
    @Override
    public FilePosition position(String source, String fingerprint) {
      return null;
    }

    @Override
    public List<TransferRecord> commit(
        FilePosition position,
        List<TailSink.KeyedRecord> records,
        List<TailSink.KeyedRejection> rejections)
        throws IOException {
      return store.commit(position, records, rejections);
    }
  }

  @Test
  void poll_fileOfExactlyOneCompleteLine_isRead() throws IOException {
    LogTailer t = new LogTailer(log, LogFormat.GRIDFTP, store);
    append(log, 0, 1);
    assertEquals(1, t.poll().records());
  }

  @Test
  void poll_partialLastLine_waitsForItsEnd() throws IOException {
    LogTailer t = new LogTailer(log, LogFormat.GRIDFTP, store);
    append(log, 0, 2);
    String next = TestLines.gridftp(2);
    Files.writeString(log, next.substring(0, 50), StandardOpenOption.APPEND);
    assertEquals(2, t.poll().records());
    assertEquals(0, t.poll().rejected());
    Files.writeString(log, next.substring(50) + "\n", StandardOpenOption.APPEND);
    ParseReport r = t.poll();
    assertEquals(1, r.records());
    assertEquals(0, r.rejected());
    assertEquals(expected(0, 3), stored());
  }

  @Test
  void poll_renameRotationThenGzip_losesAndDuplicatesNothing() throws IOException {
    LogTailer t = new LogTailer(log, LogFormat.GRIDFTP, store);
    append(log, 0, 10);
    t.poll();
    append(log, 10, 15); // written before rotation, not yet read
    Files.move(log, dir.resolve("gridftp.log.1"));
    append(dir.resolve("gridftp.log.1"), 15, 17); // server still writing to the renamed file
    append(log, 17, 20);
    t.poll();
    assertEquals(expected(0, 20), stored());
    // logrotate later compresses the rotated file; it is recognised and not read twice.
    gzip(dir.resolve("gridftp.log.1"), dir.resolve("gridftp.log.2.gz"));
    ParseReport r = t.poll();
    assertEquals(0, r.records());
    assertEquals(expected(0, 20), stored());
    assertEquals(20, store.transferCount());
  }

  @Test
  void poll_copyTruncate_readsTheCopysTailAndTheNewFile() throws IOException {
    LogTailer t = new LogTailer(log, LogFormat.GRIDFTP, store);
    append(log, 0, 10);
    t.poll();
    append(log, 10, 13);
    Files.copy(log, dir.resolve("gridftp.log.1"));
    Files.write(log, new byte[0], StandardOpenOption.TRUNCATE_EXISTING);
    append(log, 13, 16);
    t.poll();
    assertEquals(expected(0, 16), stored());
    assertEquals(16, store.transferCount());
  }

  @Test
  void poll_rotatedGzipPresentAtStart_isReadOnce() throws IOException {
    Path old = dir.resolve("gridftp.log.1");
    append(old, 0, 4);
    gzip(old, dir.resolve("gridftp.log.2.gz"));
    Files.delete(old);
    append(log, 4, 6);
    LogTailer t = new LogTailer(log, LogFormat.GRIDFTP, store);
    assertEquals(6, t.poll().records());
    assertEquals(0, t.poll().records());
    assertEquals(expected(0, 6), stored());
  }

  @Test
  void restart_newStoreAndTailer_continuesWithoutDuplicates() throws IOException {
    new LogTailer(log, LogFormat.GRIDFTP, store).poll();
    append(log, 0, 7);
    new LogTailer(log, LogFormat.GRIDFTP, store).poll();
    store.close();
    append(log, 7, 9);
    store = openStore();
    ParseReport r = new LogTailer(log, LogFormat.GRIDFTP, store).poll();
    assertEquals(2, r.lines());
    assertEquals(expected(0, 9), stored());
  }

  @Test
  void restart_lostPosition_linesAreNotCountedTwice() throws IOException {
    append(log, 0, 5);
    new LogTailer(log, LogFormat.GRIDFTP, store).poll();
    // Another log path pointing at the same content would re-read it; same path, same keys.
    store.close();
    Files.delete(dir.resolve("db/provider.db"));
    Files.deleteIfExists(dir.resolve("db/provider.db-wal"));
    Files.deleteIfExists(dir.resolve("db/provider.db-shm"));
    store = openStore();
    LogTailer t = new LogTailer(log, LogFormat.GRIDFTP, store);
    t.poll();
    t.poll();
    assertEquals(5, store.transferCount());
  }

  @Test
  void poll_unrelatedSiblings_areNotRead() throws IOException {
    append(dir.resolve("gridftp.log.swp"), 100, 101);
    append(dir.resolve("gridftp.logger"), 101, 102);
    append(dir.resolve("gridftp.log-20261121.gz.tmp"), 102, 103);
    append(dir.resolve("gridftp.log-20261121"), 0, 1);
    append(log, 1, 2);
    new LogTailer(log, LogFormat.GRIDFTP, store).poll();
    assertEquals(expected(0, 2), stored());
  }

  @Test
  void poll_unreadableRotatedFile_doesNotStopTheLiveLog() throws IOException {
    // A corrupt gzip file: reading it fails with an I/O error, whoever runs the test.
    Files.write(
        dir.resolve("gridftp.log.2.gz"),
        new byte[] {0x1f, (byte) 0x8b, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
    append(log, 1, 3);
    assertEquals(2, new LogTailer(log, LogFormat.GRIDFTP, store).poll().records());
  }

  @Test
  void poll_storeFailure_isThrown() throws IOException {
    append(log, 0, 2);
    LogTailer t = new LogTailer(log, LogFormat.GRIDFTP, store);
    store.close();
    IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class, t::poll);
    assertTrue(e.getMessage().contains("provider.db"), e.getMessage());
    store = openStore();
  }

  @Test
  void reread_malformedLinesAreNotCountedTwice() throws IOException {
    append(log, 0, 2);
    Files.writeString(
        log,
        "garbage\n" + "y".repeat(LogFiles.MAX_LINE_BYTES + 5) + "\n",
        StandardOpenOption.APPEND);
    LogTailer t = new LogTailer(log, LogFormat.GRIDFTP, store);
    assertEquals(2, t.poll().rejected());
    // Rewritten in place, shorter, same first line: read again from the start.
    List<String> lines = Files.readAllLines(log);
    Files.write(log, lines.subList(0, 3));
    t.poll();
    assertEquals(
        java.util.Map.of("not KEY=value", 1L, "line too long", 1L),
        store.rejections().get(log.toString()));
  }

  @Test
  void poll_missingLog_isReportedNotFatal() throws IOException {
    LogTailer t = new LogTailer(log, LogFormat.GRIDFTP, store);
    assertEquals(0, t.poll().lines());
    assertTrue(t.missing());
    append(log, 0, 2);
    assertEquals(2, t.poll().records());
    assertFalse(t.missing());
    Files.delete(log);
    t.poll();
    assertTrue(t.missing());
  }

  @Test
  void poll_malformedLines_countedOnceAcrossPollsAndRestarts() throws IOException {
    LogTailer t = new LogTailer(log, LogFormat.GRIDFTP, store);
    append(log, 0, 1);
    Files.writeString(log, "garbage\nDATE=1 NBYTES=-3\n", StandardOpenOption.APPEND);
    ParseReport r = t.poll();
    assertEquals(2, r.rejected());
    t.poll();
    new LogTailer(log, LogFormat.GRIDFTP, store).poll();
    assertEquals(
        2L,
        store.rejections().get(log.toString()).values().stream().mapToLong(Long::longValue).sum());
    assertEquals(
        List.of(log + ":2: not KEY=value: garbage"),
        t.report().examples().stream().limit(1).map(Object::toString).toList());
  }

  private static void gzip(Path from, Path to) throws IOException {
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(to))) {
      Files.copy(from, out);
    }
  }
}
