package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dataset jobs whose files are still read while the first ones are fetched ({@link DatasetFeed}).
 */
class DatasetFeedTest {
  @TempDir Path dir;
  Path a;
  Path out;
  List<DatasetFile> files = new ArrayList<>();

  /** 30 files of 1-20 KB on one local replica. */
  @BeforeEach
  void tree() throws Exception {
    a = Files.createDirectories(dir.resolve("a"));
    out = dir.resolve("out");
    SplittableRandom r = new SplittableRandom(3);
    for (int i = 0; i < 30; i++) {
      String name = "d" + (i % 4) + "/f" + i + ".bin";
      byte[] data = new byte[1000 + r.nextInt(20_000)];
      r.nextBytes(data);
      Files.createDirectories(a.resolve(name).getParent());
      Files.write(a.resolve(name), data);
      files.add(DatasetFile.of(name, -1, List.of(a.resolve(name).toUri())));
    }
  }

  private Dataset.Builder job(List<DatasetFile> head, DatasetFeed rest) {
    return Dataset.builder()
        .files(head)
        .moreFiles(rest)
        .outputDirectory(out)
        .journal(null)
        .concurrency(2);
  }

  /** A feed over {@code files}, calling {@code before} ahead of each file it gives. */
  private static DatasetFeed feed(List<DatasetFile> files, FeedStep before) {
    Iterator<DatasetFile> it = files.iterator();
    int[] i = {0};
    return () -> {
      if (!it.hasNext()) {
        return null;
      }
      before.at(i[0]++);
      return it.next();
    };
  }

  interface FeedStep {
    void at(int index) throws IOException;
  }

  private void assertArrived(List<DatasetFile> which) throws IOException {
    for (DatasetFile f : which) {
      assertArrayEquals(
          Files.readAllBytes(a.resolve(f.path())), Files.readAllBytes(out.resolve(f.path())));
    }
  }

  @Test
  void theFirstRequest_goesOutBeforeTheLastFileIsRead() throws Exception {
    CountDownLatch requested = new CountDownLatch(1);
    boolean[] waitedInTime = {true};
    DatasetReport r =
        job(
                files.subList(0, 1),
                feed(
                    files.subList(1, files.size()),
                    i -> {
                      if (i == files.size() - 2) { // the last file: blocks until a request went out
                        try {
                          waitedInTime[0] = requested.await(20, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                          throw new IOException(e);
                        }
                      }
                    }))
            .sourceFactory(
                u -> {
                  requested.countDown();
                  return new FileRangeSource(u);
                })
            .build()
            .run();
    assertTrue(waitedInTime[0], "no request went out while the list was still being read");
    assertTrue(r.complete(), DatasetReports.text(r, 10));
    assertEquals(30, r.count("fetched"));
    assertArrived(files);
  }

  @Test
  void aBadEntryLateInTheFeed_stopsTheJob_andTheFilesVerifiedBeforeItAreKeptForTheNextRun()
      throws Exception {
    Path first = out.resolve(files.get(0).path());
    DatasetFeed failing =
        feed(
            files.subList(1, 20),
            i -> {
              if (i == 18) {
                // the first file verified, then the bad entry
                awaitFile(first);
                throw new IllegalArgumentException("list.txt:57: checksum must look like TYPE=HEX");
              }
            });
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> job(files.subList(0, 1), failing).build().run());
    assertEquals("list.txt:57: checksum must look like TYPE=HEX", e.getMessage());
    assertTrue(Files.exists(first));
    List<String> kept = new ArrayList<>();
    for (DatasetFile f : files) {
      if (Files.exists(out.resolve(f.path()))) {
        kept.add(f.path());
      }
    }
    // the same job again, its list mended: what the first run verified is not fetched again
    DatasetReport again =
        job(files.subList(0, 1), feed(files.subList(1, 30), i -> {})).build().run();
    assertTrue(again.complete(), DatasetReports.text(again, 10));
    assertEquals(kept.size(), again.count("skipped"), kept.toString());
    assertEquals(30 - kept.size(), again.count("fetched"));
    assertArrived(files);
  }

  @Test
  void cancelledWhileTheListIsRead_theNextRunSkipsWhatWasVerified() throws Exception {
    Dataset[] running = new Dataset[1];
    Path first = out.resolve(files.get(0).path());
    DatasetFeed slow =
        feed(
            files.subList(1, 30),
            i -> {
              if (i == 10) {
                awaitFile(first);
                running[0].cancel();
              }
            });
    running[0] = job(files.subList(0, 1), slow).build();
    DatasetReport r = running[0].run();
    assertFalse(r.complete());
    assertTrue(r.stopped() != null, DatasetReports.text(r, 10));
    assertTrue(r.files().size() < 30, "stopped reading: " + r.files().size());
    DatasetReport again =
        job(files.subList(0, 1), feed(files.subList(1, 30), i -> {})).build().run();
    assertTrue(again.complete(), DatasetReports.text(again, 10));
    assertTrue(again.count("skipped") >= 1, DatasetReports.text(again, 10));
    assertArrived(files);
  }

  @Test
  void namesThatCannotBeWritten_theLaterOfTwoFails() throws Exception {
    DatasetFile any = files.get(0);
    List<DatasetFile> rest =
        List.of(
            DatasetFile.of("conflict", -1, any.sources()),
            DatasetFile.of("conflict/inside", -1, any.sources()),
            DatasetFile.of("x.part", -1, any.sources()),
            DatasetFile.of("x", -1, any.sources()),
            DatasetFile.of("y", -1, any.sources()),
            DatasetFile.of("y.braid-ctl", -1, any.sources()));
    DatasetReport r = job(List.of(any), feed(rest, i -> {})).build().run();
    Map<String, String> failed = new HashMap<>();
    for (DatasetFileReport f : r.failures()) {
      failed.put(f.path(), f.error());
    }
    assertEquals(3, failed.size(), failed.toString());
    assertTrue(
        failed.get("conflict/inside").contains("its directory 'conflict' is another file"),
        failed.toString());
    assertTrue(failed.get("x").contains("its temporary file would be 'x.part'"), failed.toString());
    assertTrue(failed.get("y.braid-ctl").contains("temporary file of 'y'"), failed.toString());
    assertEquals(4, r.count("fetched"));
  }

  @Test
  void theFirstRequests_oneToEachServer_beforeTheOthers() throws Exception {
    // four replicas of every file; the first request to each is held 100 ms, well within the
    // 300 ms after which the other workers start anyway
    List<Path> roots = new ArrayList<>();
    for (String r : List.of("b", "c", "d")) {
      Path root = dir.resolve(r);
      for (DatasetFile f : files) {
        Files.createDirectories(root.resolve(f.path()).getParent());
        Files.copy(a.resolve(f.path()), root.resolve(f.path()));
      }
      roots.add(root);
    }
    List<DatasetFile> four = new ArrayList<>();
    for (DatasetFile f : files) {
      List<URI> s = new ArrayList<>(f.sources());
      for (Path root : roots) {
        s.add(root.resolve(f.path()).toUri());
      }
      four.add(f.withSources(s));
    }
    List<Path> all = new ArrayList<>(roots);
    all.add(a);
    Object lock = new Object();
    Set<String> first = new HashSet<>();
    boolean[] released = {false};
    List<String> early = new ArrayList<>(); // other requests before any first one was answered
    DatasetReport r =
        Dataset.builder()
            .files(four)
            .outputDirectory(out)
            .journal(null)
            .concurrency(12)
            .sourceFactory(
                u -> {
                  String server = null;
                  for (Path root : all) {
                    if (u.getPath().startsWith(root.toUri().getPath())) {
                      server = root.toString();
                    }
                  }
                  boolean hold;
                  synchronized (lock) {
                    hold = first.add(server);
                    if (!hold && !released[0]) {
                      early.add(server);
                    }
                  }
                  if (hold) {
                    try {
                      Thread.sleep(100);
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                    }
                    synchronized (lock) {
                      released[0] = true;
                    }
                  }
                  return new FileRangeSource(u);
                })
            .build()
            .run();
    assertTrue(r.complete(), DatasetReports.text(r, 10));
    assertEquals(4, first.size(), first.toString());
    assertEquals(List.of(), early, "second requests before the first answers");
    assertArrived(files);
  }

  @Test
  void claims_followTheRulesOfTheWholeListCheck() {
    DatasetClaims c = new DatasetClaims();
    assertNull(c.claim("a/b/c"));
    assertEquals("listed twice", c.claim("a/b/c"));
    assertEquals("also a directory of other files of the dataset", c.claim("a/b"));
    assertEquals("the name of braid's own state file", c.claim(DatasetOutput.STATE));
    assertTrue(c.claim("a/b/c/d").startsWith("its directory 'a/b/c'"));
    assertTrue(c.claim("a/b/c.part").startsWith("collides with the temporary file"));
    assertTrue(c.claim("n".repeat(250)).startsWith("name too long"));
    assertNull(c.claim("a/b/e"));
  }

  @Test
  void claimsAndTheWholeListCheck_giveTheSameReasonsForNamesThatCannotBeWrittenAtAll() {
    List<String> bad =
        List.of(DatasetOutput.STATE, DatasetOutput.STATE + ".x", "d/" + "n".repeat(250));
    List<DatasetFile> files = new ArrayList<>();
    for (String p : bad) {
      files.add(DatasetFile.of(p, 1, List.of(URI.create("http://a.example/f"))));
    }
    Map<Integer, String> whole = DatasetOutput.conflicts(files);
    DatasetClaims c = new DatasetClaims();
    for (int i = 0; i < bad.size(); i++) {
      String why = c.claim(bad.get(i));
      assertTrue(why != null, bad.get(i));
      assertEquals(whole.get(i), why, bad.get(i));
    }
    assertEquals("name too long for its temporary files", whole.get(2));
  }

  /** Waits (at most 20 s) until file f exists: the job has verified and renamed it. */
  private static void awaitFile(Path f) {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!Files.exists(f) && System.nanoTime() < until) {
      Thread.onSpinWait();
    }
  }
}
