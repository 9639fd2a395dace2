package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The dataset scheduler's choices, on a clock of the test's own (no transfers, no sleeping). */
class DatasetSchedulerTest {
  private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
  private static final URI A = URI.create("http://a.example:80/");
  private static final URI B = URI.create("http://b.example:80/");

  private final AtomicLong clock = new AtomicLong(1_000 * MS);

  private DatasetScheduler scheduler(List<DatasetFile> files, int concurrency) {
    return scheduler(files, concurrency, Map.of());
  }

  private DatasetScheduler scheduler(
      List<DatasetFile> files, int concurrency, Map<String, Double> predicted) {
    DatasetScheduler s = unprepared(files, concurrency, predicted);
    for (int i = 0; i < files.size(); i++) {
      s.prepared(i, null, null);
    }
    return s;
  }

  private DatasetScheduler unprepared(
      List<DatasetFile> files, int concurrency, Map<String, Double> predicted) {
    DatasetSpec spec =
        new DatasetSpec(
            files,
            Path.of("unused"),
            concurrency,
            false,
            List.of(),
            Scheme.adaptive(),
            SourceOptions.DEFAULT,
            null,
            false,
            2,
            Clock.systemUTC(),
            clock::get,
            null,
            null,
            Guards.DEFAULT,
            null,
            null);
    return new DatasetScheduler("test", spec, predicted);
  }

  private static List<DatasetFile> smallFiles(int n) {
    List<DatasetFile> files = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String name = "f" + i;
      files.add(DatasetFile.of(name, 10_000, List.of(A.resolve(name), B.resolve(name))));
    }
    return files;
  }

  /** Ends the task after {@code firstByteMs} to its first byte and {@code ms} in all. */
  private void finish(DatasetScheduler s, DatasetTask t, long firstByteMs, long ms) {
    t.firstByteNanos = t.startNanos + firstByteMs * MS;
    clock.set(Math.max(clock.get(), t.startNanos + ms * MS));
    s.finished(t, DatasetOutcome.ok(t.size, Map.of(), Map.of(t.servers.get(0).key, t.size)));
  }

  private static boolean onA(DatasetTask t) {
    return t.sources.get(0).getHost().equals("a.example");
  }

  @Test
  void aServerSlowAtTheStart_isGivenWorkAgainOnceIdle() throws Exception {
    DatasetScheduler s = scheduler(smallFiles(400), 2);
    DatasetTask first = s.next();
    DatasetTask second = s.next();
    assertTrue(onA(first) != onA(second), "one file on each server at first");
    DatasetTask slowA = onA(first) ? first : second;
    DatasetTask fastB = onA(first) ? second : first;
    // A's first request waited half a second for its first byte (this client's start-up, say)
    finish(s, fastB, 10, 20);
    finish(s, slowA, 500, 510);
    int onA = 0;
    int n = 0;
    DatasetTask t;
    while ((t = s.next()) != null) {
      finish(s, t, 10, 20);
      clock.addAndGet(5 * MS);
      n++;
      if (onA(t)) {
        onA++;
      }
    }
    assertEquals(398, n);
    // idle for a second, A is tried again, its latency measured anew (10 ms): it serves its share
    assertTrue(onA > n / 3, "files on A after its slow start: " + onA + " of " + n);
  }

  @Test
  void aFileWhoseBodyHasArrived_freesItsSlotAndServer_whileItIsVerifiedAndRenamed() {
    DatasetScheduler s = scheduler(smallFiles(4), 1);
    DatasetTask first = s.poll(clock.get());
    assertTrue(first != null);
    assertEquals(null, s.poll(clock.get()), "one file at a time");
    DatasetServer server = first.servers.get(0);
    s.released(first); // its last byte is in: hashed, flushed and renamed from here on
    assertEquals(0, server.running, "its server counts as free");
    DatasetTask second = s.poll(clock.get());
    assertTrue(second != null, "the next file starts while the first is finished");
    assertEquals(null, s.poll(clock.get()), "and still one file fetched at a time");
    s.released(first); // said twice: counted once
    assertEquals(null, s.poll(clock.get()));
    finish(s, first, 10, 20);
    assertEquals(null, s.poll(clock.get()), "the first's end frees no second slot");
    int servedBy = 0;
    for (DatasetServer v : s.servers()) {
      servedBy += v.running;
    }
    assertEquals(1, servedBy, "only the second file counts on a server");
    finish(s, second, 10, 20);
    assertTrue(s.poll(clock.get()) != null);
  }

  @Test
  void threads_leaveSpareWorkersForTheNextRequestWhileFilesAreFinished() {
    assertEquals(2, DatasetJob.threads(1));
    assertEquals(8 + DatasetJob.SPARE_WORKERS, DatasetJob.threads(8));
  }

  @Test
  void latency_isTheShortestRecentFirstByte_notOneSlowedByTheServersQueue() {
    DatasetServer s = new DatasetServer("http://a.example:80", 0);
    s.succeeded(0.010);
    s.succeeded(0.400); // waited behind the other files in flight on the same link
    s.succeeded(0.300);
    assertEquals(0.010, s.latency(0), 1e-9);
    for (int i = 0; i < DatasetServer.LATENCY_WINDOW; i++) {
      s.succeeded(0.050); // the path's round trip grew: the old minimum leaves the window
    }
    assertEquals(0.050, s.latency(0), 1e-9);
  }

  @Test
  void latency_ofAnIdleServer_countsAgainOnlyAfterASecond() {
    DatasetServer s = new DatasetServer("http://a.example:80", 0);
    s.started();
    s.succeeded(0.5);
    s.ended(0);
    assertEquals(0.5, s.latency(999 * MS), 1e-9);
    assertEquals(0, s.latency(1000 * MS), 1e-9);
    s.started();
    assertEquals(0.5, s.latency(2000 * MS), 1e-9, "busy again: measured as it runs");
  }

  @Test
  void aFileDoneByItsSecondCopy_isNotCopiedAgainWhileItsFirstStops() {
    List<DatasetFile> files =
        List.of(
            DatasetFile.of("big", 1_000_000, List.of(A.resolve("big"), B.resolve("big"))),
            DatasetFile.of("only-a", 1_000_000, List.of(A.resolve("only-a"))));
    DatasetScheduler s = scheduler(files, 3);
    long t0 = clock.get();
    DatasetTask big = s.poll(t0);
    DatasetTask onlyA = s.poll(t0);
    assertEquals("big", files.get(big.file).path());
    assertTrue(onA(big) && onA(onlyA));
    // two seconds in, A has delivered nothing (no rate to cut "big" by): B would fetch it sooner
    clock.set(t0 + 2000 * MS);
    DatasetTask copy = s.poll(clock.get());
    assertTrue(copy != null && copy.duplicate && !onA(copy), "a second copy of big from B");
    assertTrue(s.claim(copy));
    finish(s, copy, 10, 2100);
    // the first copy of big still runs until its worker sees it is cancelled
    assertEquals(null, s.poll(clock.get()), "no third copy of a file already done");
  }

  @Test
  void aLargeFileFoundOnAServer_staysThereUnlessItWouldMakeTheJobsEndWait() {
    // 99 files of 1 MB and one of unknown size; A delivers 10 MB/s, B 1 MB/s: about 9 s left
    List<DatasetFile> files = new ArrayList<>();
    files.add(DatasetFile.of("unknown", -1, List.of(A.resolve("unknown"), B.resolve("unknown"))));
    for (int i = 0; i < 99; i++) {
      files.add(
          DatasetFile.of("f" + i, 1_000_000, List.of(A.resolve("f" + i), B.resolve("f" + i))));
    }
    DatasetScheduler s =
        scheduler(files, 2, Map.of("http://a.example:80", 10e6, "http://b.example:80", 1e6));
    DatasetTask onA = s.poll(clock.get());
    assertEquals("unknown", files.get(onA.file).path());
    assertTrue(onA(onA));
    // 40 MB: A finishes it in 4 s, within half the 9 s the job needs: kept on A
    assertTrue(s.keepDiscovered(onA, 40_000_000));
    assertEquals(40_000_000, onA.size);
    assertEquals(40_000_000, s.state(onA.file).size);
    // near a job's end (A busy with a last file of 11 MB), a 10 MB file found on B, which would
    // take 10 s there: sent back to be co-allocated
    DatasetFile last = DatasetFile.of("last", 11_000_000, List.of(A.resolve("l"), B.resolve("l")));
    DatasetFile big = DatasetFile.of("big", -1, List.of(B.resolve("big"), A.resolve("big")));
    DatasetScheduler t =
        scheduler(
            List.of(last, big), 2, Map.of("http://a.example:80", 10e6, "http://b.example:80", 1e6));
    assertTrue(onA(t.poll(clock.get())));
    DatasetTask onB = t.poll(clock.get());
    assertTrue(!onA(onB), "A's backlog (1.1 s) is longer than a file of the expected size on B");
    assertTrue(!t.keepDiscovered(onB, 10_000_000));
    assertEquals(-1, onB.size, "left for the scheduler to plan again");
  }

  @Test
  void filesOfUnknownSize_areSpreadOverTheServersFromTheStart() {
    // an input list without sizes: counted as empty, all four first files went to A
    List<DatasetFile> files = unknownSizes(8);
    DatasetScheduler s = scheduler(files, 4);
    int onA = 0;
    for (int i = 0; i < 4; i++) {
      if (onA(s.poll(clock.get()))) {
        onA++;
      }
    }
    assertEquals(2, onA, "two files of the expected size on each of two equal servers");
  }

  /**
   * A 40 MB file only B (10 MB/s) holds and a 3 MB file on A (1 MB/s) and B: B takes the first, A
   * the second.
   */
  private DatasetScheduler slowTail() {
    List<DatasetFile> files =
        List.of(
            DatasetFile.of("on-b", 40_000_000, List.of(B.resolve("on-b"))),
            DatasetFile.of("slow", 3_000_000, List.of(A.resolve("slow"), B.resolve("slow"))));
    return scheduler(files, 3, Map.of("http://a.example:80", 1e6, "http://b.example:80", 10e6));
  }

  @Test
  void aSlowFileAtTheTail_isTakenOverOnlyByAnIdleServer() {
    DatasetScheduler s = slowTail();
    long t0 = clock.get();
    DatasetTask onB = s.poll(t0);
    DatasetTask slow = s.poll(t0);
    assertTrue(!onA(onB) && onA(slow), "B busy for 4 s: the 3 MB file on A (3 s)");
    slow.firstByteNanos = t0;
    slow.received = 100_000;
    onB.firstByteNanos = t0;
    onB.received = 1_000_000;
    clock.set(t0 + 1000 * MS);
    assertEquals(null, s.poll(clock.get()), "no copy or piece while B serves another file");
    finish(s, onB, 10, 1000);
    DatasetTask piece = s.poll(clock.get());
    assertTrue(
        piece != null && piece.mode == DatasetTask.Mode.RANGE && !onA(piece),
        "B idle: it takes over the rest of the slow file");
  }

  @Test
  void aStalledFileAtTheTail_isCopiedToAnIdleServer() {
    DatasetScheduler s = slowTail();
    long t0 = clock.get();
    DatasetTask onB = s.poll(t0);
    DatasetTask slow = s.poll(t0);
    assertTrue(onA(slow));
    finish(s, onB, 10, 1000);
    // nothing received from A in a second: no rate to cut by, a whole copy on B instead
    DatasetTask copy = s.poll(clock.get());
    assertTrue(copy != null && copy.duplicate && !onA(copy), "B idle: a copy of the stalled file");
  }

  /** One 10 MB file on A and B, 9 MB/s predicted for both, two workers. */
  private DatasetScheduler bigFileOnAAndB() {
    List<DatasetFile> files =
        List.of(DatasetFile.of("big", 10_000_000, List.of(A.resolve("big"), B.resolve("big"))));
    return scheduler(files, 2, Map.of("http://a.example:80", 9e6, "http://b.example:80", 9e6));
  }

  @Test
  void theTailIsSplit_whereBothServersEndTogether_andTheFileIsReportedOnce() {
    // one 10 MB file on A, received at 1 MB/s for a second; B idle, 9 MB/s predicted, no latency
    DatasetScheduler s = bigFileOnAAndB();
    long t0 = clock.get();
    DatasetTask owner = s.poll(t0);
    assertTrue(owner.mode == DatasetTask.Mode.SINGLE && onA(owner), "alone on A first");
    assertEquals(null, s.poll(t0), "no rate measured yet: nothing to cut by");
    written(owner, t0, 1_000_000);
    clock.set(t0 + 1000 * MS);
    DatasetTask piece = s.poll(clock.get());
    assertTrue(piece != null && piece.mode == DatasetTask.Mode.RANGE && !onA(piece), "B helps");
    // A still needs (at - 1,065,536) / 1 MB/s, B (10 MB - at) / 9 MB/s: equal at 1,958,982
    long at = piece.from;
    assertEquals(1_958_982, at, 2);
    assertEquals(at, owner.stop(), "A stops where B starts");
    assertEquals(10_000_000, piece.stop());
    assertEquals(10, owner.accept(at - 10, 100), "A keeps no byte past the cut");
    assertTrue(!owner.cut(1_500_000), "no cut before bytes A has accepted");
    assertEquals(null, s.poll(clock.get()), "B busy, A still fetching: nothing more to hand out");
    // the piece ends first, then the owner reports the whole file with both servers' bytes
    piece.firstByteNanos = clock.get();
    clock.addAndGet(900 * MS);
    s.finished(piece, DatasetOutcome.ok(10_000_000, Map.of(), Map.of("http://b.example:80", 1L)));
    assertEquals(1, s.open(), "the file is not done by its piece alone");
    assertTrue(s.claim(owner));
    s.finished(
        owner,
        DatasetOutcome.ok(
            10_000_000,
            Map.of(),
            Map.of("http://a.example:80", at, "http://b.example:80", 10_000_000 - at)));
    assertEquals(0, s.open());
    assertTrue(s.done());
    long total = 0;
    for (DatasetServer server : s.servers()) {
      assertEquals(1, server.files, server.key);
      total += server.bytes;
    }
    assertEquals(10_000_000, total, "every byte counted once");
  }

  @Test
  void theTailsCut_countsTheLinkTheOwnerGetsOnceItsServersOtherFilesEnd() {
    // as above, but A's rate is measured (9 MB/s) and the file is A's last: it gets all of A from
    // now on, not the 1 MB/s it averaged while sharing A with other files
    DatasetScheduler s = bigFileOnAAndB();
    long t0 = clock.get();
    DatasetTask owner = s.poll(t0);
    written(owner, t0, 1_000_000);
    measuredAt(owner, 9e6);
    clock.set(t0 + 1000 * MS);
    DatasetTask piece = s.poll(clock.get());
    assertTrue(piece != null && !onA(piece), "B helps");
    // A (9 MB/s) and B (9 MB/s) share the 8,934,464 bytes left past what A may have on its way
    assertEquals(1_065_536 + 8_934_464 / 2, piece.from, 2);
  }

  @Test
  void theTailsCut_givesTheOwnerItsServersLinkAsTheServersOtherFilesEnd() {
    // the 10 MB file shares A (9 MB/s measured) with a 1 MB file that has 500 kB left: the big
    // file gets half of A until that one ends, then all of it
    List<DatasetFile> files =
        List.of(
            DatasetFile.of("big", 10_000_000, List.of(A.resolve("big"), B.resolve("big"))),
            DatasetFile.of("small", 1_000_000, List.of(A.resolve("small"))));
    DatasetScheduler s =
        scheduler(files, 3, Map.of("http://a.example:80", 9e6, "http://b.example:80", 9e6));
    long t0 = clock.get();
    DatasetTask owner = s.poll(t0);
    DatasetTask small = s.poll(t0);
    assertTrue(onA(owner) && onA(small) && small.file == 1, "both on A, B idle");
    written(owner, t0, 1_000_000);
    small.firstByteNanos = t0;
    small.received = 500_000;
    measuredAt(owner, 9e6);
    clock.set(t0 + 1000 * MS);
    DatasetTask piece = s.poll(clock.get());
    assertTrue(piece != null && piece.mode == DatasetTask.Mode.RANGE && !onA(piece), "B helps");
    // 8,934,464 bytes left past what may be on its way: A keeps x, (x + 500,000) / 9 MB/s =
    // (8,934,464 - x) / 9 MB/s, x = 4,217,232 (at A's share of 4.5 MB/s it kept only a third)
    assertEquals(1_065_536 + 4_217_232, piece.from, 2);
  }

  @Test
  void theTailOfASlowLink_isSplitDownToSmallPieces() {
    // 300 kB on A, whose link is measured at 1.2 MB/s; 100 kB in after a second; B idle, 2.4 MB/s
    List<DatasetFile> files =
        List.of(DatasetFile.of("f", 300_000, List.of(A.resolve("f"), B.resolve("f"))));
    DatasetScheduler s =
        scheduler(files, 2, Map.of("http://a.example:80", 10e6, "http://b.example:80", 2.4e6));
    long t0 = clock.get();
    DatasetTask owner = s.poll(t0);
    assertTrue(onA(owner));
    written(owner, t0, 100_000);
    measuredAt(owner, 1.2e6);
    clock.set(t0 + 1000 * MS);
    DatasetTask piece = s.poll(clock.get());
    // 134,464 bytes left past what may be on its way: A keeps a third (0.037 s), B the rest
    assertTrue(
        piece != null && piece.mode == DatasetTask.Mode.RANGE && !onA(piece),
        "B takes the last 89,643 bytes, 0.075 s sooner");
    assertEquals(165_536 + 134_464 / 3, piece.from, 2);
  }

  @Test
  void aFileSlowedBySmallOnesAtTheTail_isNotCopied_whenItsServerIsAboutToBeItsAlone() {
    // 640 kB on A (4.8 MB/s measured), 400 kB in after 2.8 s while A served many small files;
    // only one is left there, 50 kB from its end; B idle at 1.2 MB/s
    List<DatasetFile> files =
        List.of(
            DatasetFile.of("slow", 640_000, List.of(A.resolve("slow"), B.resolve("slow"))),
            DatasetFile.of("other", 1_000_000, List.of(A.resolve("other"))));
    DatasetScheduler s =
        scheduler(files, 3, Map.of("http://a.example:80", 10e6, "http://b.example:80", 1.2e6));
    long t0 = clock.get();
    DatasetTask slow = s.poll(t0);
    DatasetTask other = s.poll(t0);
    assertTrue(onA(slow) && onA(other) && slow.file == 0);
    written(slow, t0, 400_000);
    other.firstByteNanos = t0;
    other.received = 950_000;
    measuredAt(slow, 4.8e6);
    clock.set(t0 + 2800 * MS);
    // by its mean (0.14 MB/s) it needs 1.7 s and B would copy it in 0.53 s; A ends both in 0.06 s
    assertEquals(null, s.poll(clock.get()), "no copy, and no piece worth a request");
  }

  @Test
  void anIdleServerTooSlowForTheLastFiles_takesPartOfARunningOne() {
    // A 10 MB/s, B 1 MB/s; 8 MB of a 10 MB file left on A and one 1 MB file to start: B would
    // need 1 s for it, more than a quarter of the 0.8 s left, so it goes to A; B takes the big
    // file's end meanwhile rather than stand idle
    List<DatasetFile> files =
        List.of(
            DatasetFile.of("big", 10_000_000, List.of(A.resolve("big"), B.resolve("big"))),
            DatasetFile.of("last", 1_000_000, List.of(A.resolve("last"), B.resolve("last"))));
    DatasetScheduler s =
        scheduler(files, 3, Map.of("http://a.example:80", 10e6, "http://b.example:80", 1e6));
    long t0 = clock.get();
    DatasetTask big = s.poll(t0);
    assertTrue(onA(big) && big.file == 0);
    written(big, t0, 2_000_000);
    measuredAt(big, 10e6);
    clock.set(t0 + 200 * MS);
    DatasetTask piece = s.poll(clock.get());
    assertTrue(piece != null && piece.mode == DatasetTask.Mode.RANGE && !onA(piece), "B helps A");
    // 7,934,464 bytes left past what may be on its way: B takes an eleventh
    assertEquals(10_000_000 - 7_934_464 / 11, piece.from, 2);
    DatasetTask last = s.poll(clock.get());
    assertTrue(last != null && last.file == 1 && onA(last), "the last file still goes to A");
  }

  @Test
  void aStalledRequestAtTheTail_stopsWhereItIs_andAnIdleServerFetchesTheRest() {
    // 1.2 MB on A: 1 MB in at 1 MB/s, then nothing for 0.3 s (a retransmission timeout); B idle
    List<DatasetFile> files =
        List.of(DatasetFile.of("f", 1_200_000, List.of(A.resolve("f"), B.resolve("f"))));
    DatasetScheduler s =
        scheduler(files, 2, Map.of("http://a.example:80", 9e6, "http://b.example:80", 9e6));
    long t0 = clock.get();
    DatasetTask owner = s.poll(t0);
    assertTrue(owner.mode == DatasetTask.Mode.SINGLE && onA(owner));
    AtomicLong readsEnded = new AtomicLong();
    owner.onCancel(readsEnded::incrementAndGet);
    written(owner, t0, 1_000_000);
    owner.lastByteNanos = t0 + 700 * MS;
    clock.set(t0 + 1000 * MS);
    DatasetTask piece = s.poll(clock.get());
    // by its rate alone A would keep 13,446 of the 134,464 bytes past what may be on its way
    // (a piece from 1,078,982); stalled, nothing is on its way and it keeps none
    assertTrue(piece != null && piece.mode == DatasetTask.Mode.RANGE && !onA(piece), "B helps");
    assertEquals(1_000_000, piece.from, "B fetches from the stalled request's last byte on");
    assertEquals(1_200_000, piece.stop());
    assertEquals(1_000_000, owner.stop(), "A stops where it is");
    assertTrue(owner.reachedStop() && !owner.cancelled, "A reached its cut, not cancelled");
    assertEquals(1, readsEnded.get(), "A's stalled read is ended, not waited for");
  }

  @Test
  void aRequestSilentForLessThanAStall_isCutByItsRate() {
    // as above, but the latest bytes came 50 ms ago: a pause, not a stall
    List<DatasetFile> files =
        List.of(DatasetFile.of("f", 1_200_000, List.of(A.resolve("f"), B.resolve("f"))));
    DatasetScheduler s =
        scheduler(files, 2, Map.of("http://a.example:80", 9e6, "http://b.example:80", 9e6));
    long t0 = clock.get();
    DatasetTask owner = s.poll(t0);
    AtomicLong readsEnded = new AtomicLong();
    owner.onCancel(readsEnded::incrementAndGet);
    written(owner, t0, 1_000_000);
    owner.lastByteNanos = t0 + 950 * MS;
    clock.set(t0 + 1000 * MS);
    DatasetTask piece = s.poll(clock.get());
    assertEquals(1_078_982, piece.from, 2);
    assertEquals(0, readsEnded.get());
  }

  @Test
  void cutHere_onlyWhereTheTaskIs() {
    DatasetTask t =
        new DatasetTask(0, DatasetTask.Mode.SINGLE, List.of(A), List.of(), false, 1000, 0);
    assertEquals(100, t.accept(0, 100));
    assertTrue(!t.cutHere(50) && !t.cutHere(150), "not behind or ahead of the bytes accepted");
    assertTrue(t.cutHere(100));
    assertEquals(100, t.stop());
    assertTrue(t.reachedStop());
    assertEquals(0, t.accept(100, 10), "nothing past the cut");
  }

  @Test
  void together_isWhereTheOwnerAndTheHelperEndAtOnce() {
    // the owner at 1 MB/s, the helper at 3 MB/s after 0.1 s: x / 1e6 = 0.1 + (1e6 - x) / 3e6
    assertEquals(325_000, DatasetChooser.together(x -> x / 1e6, 1_000_000, 3e6, 0.1), 1);
    assertEquals(0, DatasetChooser.together(x -> 1 + x / 1e6, 1_000_000, 3e6, 0.1), "never");
  }

  @Test
  void oneRequestsRate_isMeasuredOnlyFromRequestsThatHadTheirServerAlone() {
    List<DatasetFile> files = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      files.add(DatasetFile.of("f" + i, 1_000_000, List.of(A.resolve("f" + i))));
    }
    DatasetScheduler s = scheduler(files, 2);
    DatasetTask first = s.poll(clock.get());
    DatasetTask second = s.poll(clock.get());
    DatasetServer a = first.servers.get(0);
    finish(s, first, 10, 500); // 1 MB in 0.49 s, sharing A with the second file
    assertEquals(0, a.flow, "a shared request measures its share, not one request's rate");
    finish(s, second, 10, 600);
    DatasetTask alone = s.poll(clock.get());
    finish(s, alone, 10, 260); // A to itself: 1 MB in 0.25 s
    assertEquals(4e6, a.flow, 1);
  }

  @Test
  void oneRequestsRate_endsWithItsBody_notWithTheFilesFlushAndRename() {
    List<DatasetFile> files = List.of(DatasetFile.of("f", 1_000_000, List.of(A.resolve("f"))));
    DatasetScheduler s = scheduler(files, 1);
    DatasetTask t = s.poll(clock.get());
    t.firstByteNanos = t.startNanos + 10 * MS;
    clock.set(t.startNanos + 260 * MS); // 1 MB in 0.25 s from the first byte
    s.released(t);
    clock.set(t.startNanos + 460 * MS); // verified, flushed (a busy disk) and renamed
    assertTrue(s.claim(t));
    s.finished(t, DatasetOutcome.ok(1_000_000, Map.of(), Map.of(t.servers.get(0).key, 1L)));
    assertEquals(4e6, t.servers.get(0).flow, 1);
  }

  @Test
  void nothingIsSplit_whileFilesWaitToStart() {
    List<DatasetFile> files = new ArrayList<>();
    files.add(DatasetFile.of("big", 10_000_000, List.of(A.resolve("big"), B.resolve("big"))));
    files.add(DatasetFile.of("next", 1_000_000, List.of(A.resolve("next"))));
    DatasetScheduler s =
        scheduler(files, 2, Map.of("http://a.example:80", 9e6, "http://b.example:80", 9e6));
    long t0 = clock.get();
    DatasetTask owner = s.poll(t0);
    owner.firstByteNanos = t0;
    owner.received = 1_000_000;
    clock.set(t0 + 1000 * MS);
    DatasetTask t = s.poll(clock.get());
    assertTrue(t != null && t.mode == DatasetTask.Mode.SINGLE && t.file == 1, "the next file");
  }

  @Test
  void theJobsTimeLeft_followsTheMeasuredRates() {
    // 200 files of 1 MB, sizes unknown until fetched; A delivers 10 MB/s, B 1 MB/s
    List<DatasetFile> files = unknownSizes(200);
    DatasetScheduler s = scheduler(files, 8);
    List<DatasetTask> running = new ArrayList<>();
    long start = clock.get();
    while (s.open() > 100) {
      DatasetTask t;
      while ((t = s.poll(clock.get())) != null) {
        t.firstByteNanos = clock.get();
        running.add(t);
      }
      clock.addAndGet(10 * MS);
      for (DatasetServer server : s.servers()) {
        long n = inFlight(running, server) == 0 ? 0 : server.key.contains("a.") ? 100_000 : 10_000;
        int k = inFlight(running, server);
        for (DatasetTask r : running) {
          if (r.servers.get(0) == server) {
            r.received += n / k;
            server.delivered.add(n / k);
          }
        }
      }
      s.sample(clock.get());
      for (DatasetTask r : new ArrayList<>(running)) {
        if (r.received >= 1_000_000) {
          running.remove(r);
          assertTrue(s.claim(r)); // as a fetch does before it gives the file its name
          s.finished(r, DatasetOutcome.ok(1_000_000, Map.of(), Map.of(r.servers.get(0).key, 1L)));
        }
      }
    }
    double took = (clock.get() - start) / 1e9;
    // 100 MB left at 11 MB/s together: about 9 s (it took about as long for the first half)
    assertTrue(took > 7 && took < 12, "first half in " + took + " s");
    double left = s.jobSecondsLeft();
    assertTrue(left > 7 && left < 11, "estimated " + left + " s left");
  }

  @Test
  void anIdleSlowServer_isGivenAFile_unlessItWouldMakeTheJobsEndWait() {
    Map<String, Double> rates = Map.of("http://a.example:80", 10e6, "http://b.example:80", 1e6);
    List<DatasetFile> many = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      many.add(DatasetFile.of("f" + i, 100_000, List.of(A.resolve("f" + i), B.resolve("f" + i))));
    }
    DatasetScheduler s = scheduler(many, 3, rates);
    assertTrue(onA(s.poll(clock.get())));
    // A would finish a second file sooner (0.02 s against 0.1 s), but B is idle and 0.9 s of
    // work is left: B gets it
    assertTrue(!onA(s.poll(clock.get())), "the idle server B is given the second file");
    // at the end (two files left), B would make the job wait: both go to A
    DatasetScheduler end = scheduler(many.subList(0, 2), 3, rates);
    assertTrue(onA(end.poll(clock.get())));
    assertTrue(onA(end.poll(clock.get())), "B idle but too slow for the job's last files");
  }

  @Test
  void aSlowServer_keepsTwoFilesInFlight_soThatItsLinkDoesNotWaitBetweenFiles() {
    Map<String, Double> rates = Map.of("http://a.example:80", 10e6, "http://b.example:80", 1e6);
    List<DatasetFile> many = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      many.add(DatasetFile.of("f" + i, 100_000, List.of(A.resolve("f" + i), B.resolve("f" + i))));
    }
    DatasetScheduler s = scheduler(many, 4, rates);
    int onB = 0;
    for (int i = 0; i < 4; i++) {
      onB += onA(s.poll(clock.get())) ? 0 : 1;
    }
    // A would finish every file sooner, but B gets a second file (done in 0.2 s, within a quarter
    // of the 1.8 s the job needs), not a third
    assertEquals(2, onB, "files in flight on the slow server");
  }

  @Test
  void whileFilesAreStillQueued_aWorkerWaitsForThemRatherThanEnding() throws Exception {
    DatasetScheduler s = unprepared(smallFiles(2), 2, Map.of());
    s.preparing(true);
    assertTrue(!s.done(), "nothing queued yet, but more to come");
    DatasetTask[] got = new DatasetTask[1];
    Thread worker =
        new Thread(
            () -> {
              try {
                got[0] = s.next();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    worker.start();
    worker.join(200);
    assertTrue(worker.isAlive(), "the worker waits");
    s.prepared(0, null, null);
    worker.join(5000);
    assertEquals(0, got[0].file);
    s.prepared(1, null, null);
    s.preparing(false);
    assertEquals(1, s.next().file);
  }

  @Test
  void aFileFetchedWhole_leavesTheUnknownBytesOfTheJob() {
    // one file of 10 MB known, three of unknown size; A alone, 1 MB/s
    List<DatasetFile> files = new ArrayList<>();
    files.add(DatasetFile.of("known", 10_000_000, List.of(A.resolve("known"))));
    for (int i = 0; i < 3; i++) {
      files.add(DatasetFile.of("u" + i, -1, List.of(A.resolve("u" + i))));
    }
    DatasetScheduler s = scheduler(files, 1, Map.of("http://a.example:80", 1e6));
    for (long size : new long[] {10_000_000, 1_000_000}) {
      DatasetTask t = s.poll(clock.get());
      assertTrue(s.claim(t));
      s.finished(t, DatasetOutcome.ok(size, Map.of(), Map.of(t.servers.get(0).key, size)));
    }
    // two files left, each at the mean fetched (5.5 MB): 11 s (once counted 3 files less 1 MB)
    assertEquals(11.0, s.jobSecondsLeft(), 1e-6);
  }

  private static int inFlight(List<DatasetTask> running, DatasetServer server) {
    int n = 0;
    for (DatasetTask t : running) {
      if (t.servers.get(0) == server) {
        n++;
      }
    }
    return n;
  }

  /** {@code n} files "u0", "u1", ... on A and B, of sizes unknown until fetched. */
  private static List<DatasetFile> unknownSizes(int n) {
    List<DatasetFile> files = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      files.add(DatasetFile.of("u" + i, -1, List.of(A.resolve("u" + i), B.resolve("u" + i))));
    }
    return files;
  }

  /** Task t got its first byte at t0 and has since written its first {@code bytes}. */
  private static void written(DatasetTask t, long t0, int bytes) {
    t.firstByteNanos = t0;
    t.received = bytes;
    assertEquals(bytes, t.accept(0, bytes));
  }

  /** The server of task t, measured at {@code rate} bytes/s long enough for the rate to count. */
  private static DatasetServer measuredAt(DatasetTask t, double rate) {
    DatasetServer s = t.servers.get(0);
    s.measured = rate;
    s.busyNanos = DatasetServer.MEASURED_AFTER_NANOS;
    return s;
  }
}
