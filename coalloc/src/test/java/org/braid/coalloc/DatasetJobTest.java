package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.braid.coalloc.journal.JournalLine;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Dataset jobs over local replicas, some of them slow, missing files or serving corrupt ones. */
class DatasetJobTest {
  @TempDir Path dir;
  Path a;
  Path b;
  Path c;
  Path out;
  List<String> names = new ArrayList<>();
  Map<String, String> sha = new java.util.HashMap<>();

  /** 40 files, 1 KB to 1.5 MB, in nested directories with awkward names, on three replicas. */
  @BeforeEach
  void tree() throws Exception {
    a = Files.createDirectories(dir.resolve("a"));
    b = Files.createDirectories(dir.resolve("b"));
    c = Files.createDirectories(dir.resolve("c"));
    out = dir.resolve("out");
    SplittableRandom r = new SplittableRandom(42);
    for (int i = 0; i < 40; i++) {
      String name =
          "run " + (i % 3) + "/sub-" + (i % 5) + "/" + (i % 7 == 0 ? "ü $x'" : "f") + i + ".bin";
      names.add(name);
      long size = (long) Math.exp(Math.log(1000) + r.nextDouble() * Math.log(1500));
      byte[] data = new byte[(int) size];
      r.nextBytes(data);
      sha.put(name, HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data)));
      for (Path root : List.of(a, b, c)) {
        Path p = root.resolve(name);
        Files.createDirectories(p.getParent());
        Files.write(p, data);
      }
    }
  }

  private List<DatasetFile> listed(boolean withChecksums) throws IOException {
    List<Listing> ls = new ArrayList<>();
    for (Path root : List.of(a, b, c)) {
      ls.add(new FileLister(root.toUri(), ListLimits.DEFAULT).list());
    }
    List<DatasetFile> files = new ArrayList<>();
    for (DatasetFile f : DatasetListing.merge(ls).files()) {
      files.add(
          withChecksums ? f.withChecksums(List.of(new Checksum("sha-256", sha.get(f.path())))) : f);
    }
    return files;
  }

  private static DatasetFile byPath(List<DatasetFile> files, String path) {
    return files.stream().filter(f -> f.path().equals(path)).findFirst().orElseThrow();
  }

  private Dataset.Builder job(List<DatasetFile> files) {
    return Dataset.builder().files(files).outputDirectory(out).journal(dir.resolve("j.jsonl"));
  }

  private void assertComplete(DatasetReport r) throws Exception {
    assertTrue(r.complete(), DatasetReports.text(r, 10));
    for (String n : names) {
      assertArrayEquals(Files.readAllBytes(a.resolve(n)), Files.readAllBytes(out.resolve(n)), n);
    }
  }

  @Test
  void missingFilesAndACorruptCopy_datasetArrivesVerified() throws Exception {
    Files.delete(b.resolve(names.get(3)));
    Files.delete(c.resolve(names.get(3)));
    Files.delete(c.resolve(names.get(4)));
    byte[] bad = Files.readAllBytes(c.resolve(names.get(5)));
    bad[bad.length / 2] ^= 1;
    Files.write(c.resolve(names.get(5)), bad);
    // make the corrupt copy the preferred one, and its file the first
    List<DatasetFile> files = new ArrayList<>();
    for (DatasetFile f : listed(true)) {
      List<URI> s = new ArrayList<>(f.sources());
      java.util.Collections.reverse(s);
      files.add(f.path().equals(names.get(5)) ? 0 : files.size(), f.withSources(s));
    }
    assertEquals(1, byPath(files, names.get(3)).sources().size());
    // the corrupt replica is also predicted far faster: it is asked first for every file
    DatasetReport r =
        job(files)
            .concurrency(1)
            .predictedRates(List.of(new PredictedRate(c.toUri(), 1e12)))
            .build()
            .run();
    assertComplete(r);
    assertEquals(40, r.count("fetched"));
    assertTrue(
        r.servers().stream().anyMatch(s -> s.server().endsWith("/c/") && s.failures() == 1),
        DatasetReports.text(r, 10));
    DatasetFileReport five =
        r.files().stream().filter(f -> f.path().equals(names.get(5))).findFirst().orElseThrow();
    assertEquals(sha.get(names.get(5)), five.sha256());
    assertFalse(five.servers().keySet().stream().anyMatch(k -> k.endsWith("/c/")), five.toString());
    String journal = Files.readString(dir.resolve("j.jsonl"));
    assertTrue(journal.contains("sha-256 mismatch"), journal);
    assertTrue(Files.readString(out.resolve(DatasetOutput.STATE)).contains(sha.get(names.get(0))));
  }

  @Test
  void milestones_eachOnceInTheJobsOrder() throws Exception {
    List<String> seen = new ArrayList<>();
    DatasetReport r =
        job(listed(false))
            .milestones(
                (name, when) -> {
                  synchronized (seen) {
                    seen.add(name);
                  }
                })
            .build()
            .run();
    assertComplete(r);
    List<String> want = new ArrayList<>(List.of("job", "prepared", "request1", "byte1"));
    for (int i = 10; i <= 100; i += 10) {
      want.add("files" + i);
    }
    // byte1 may come before or after request1 of other workers, but after the first request
    assertEquals(Set.copyOf(want), Set.copyOf(seen), seen.toString());
    assertEquals(want.size(), seen.size(), "each once: " + seen);
    // the first requests go out while the rest of the files are prepared: either may come first
    assertTrue(seen.indexOf("job") < seen.indexOf("request1"), seen.toString());
    assertTrue(seen.indexOf("prepared") < seen.indexOf("files10"), seen.toString());
    assertTrue(seen.indexOf("request1") < seen.indexOf("byte1"), seen.toString());
    assertTrue(seen.indexOf("byte1") < seen.indexOf("files10"), seen.toString());
    for (int i = 20; i <= 100; i += 10) {
      assertTrue(seen.indexOf("files" + (i - 10)) < seen.indexOf("files" + i), seen.toString());
    }
  }

  @Test
  void theFirstRequests_goOutWhileTheRestIsCheckedAgainstTheDirectory() throws Exception {
    // 8 files to fetch first, then 24 of 2 MB verified by an earlier run (hashed again: no record)
    List<DatasetFile> files = new ArrayList<>(listed(true).subList(0, DatasetJob.HEAD_START));
    SplittableRandom r = new SplittableRandom(7);
    for (int i = 0; i < 24; i++) {
      String name = "done/d" + i + ".bin";
      byte[] data = new byte[2 << 20];
      r.nextBytes(data);
      Files.createDirectories(out.resolve("done"));
      Files.write(out.resolve(name), data);
      String hex = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
      files.add(
          DatasetFile.of(name, data.length, List.of(a.resolve(name).toUri()))
              .withChecksums(List.of(new Checksum("sha-256", hex))));
    }
    AtomicInteger preparedFirst = new AtomicInteger(-1);
    AtomicBoolean prepared = new AtomicBoolean();
    DatasetReport rep =
        job(files)
            .milestones(
                (name, when) -> {
                  if (name.equals("prepared")) {
                    prepared.set(true);
                  }
                })
            .sourceFactory(
                u -> {
                  preparedFirst.compareAndSet(-1, prepared.get() ? 1 : 0);
                  return new FileRangeSource(u);
                })
            .build()
            .run();
    assertEquals(DatasetJob.HEAD_START, rep.count("fetched"), DatasetReports.text(rep, 10));
    assertEquals(24, rep.count("skipped"));
    assertEquals(
        0, preparedFirst.get(), "the first request went out before the files were all checked");
    for (int i = 0; i < DatasetJob.HEAD_START; i++) {
      String n = files.get(i).path();
      assertArrayEquals(Files.readAllBytes(a.resolve(n)), Files.readAllBytes(out.resolve(n)), n);
    }
  }

  @Test
  void warmUp_loadsTheJobsClassesWithoutAnyConnection() throws Exception {
    DatasetWarmUp.run(SourceOptions.DEFAULT); // no server at 127.0.0.1:9 is needed
    Thread t = DatasetWarmUp.start(SourceOptions.DEFAULT);
    t.join(10_000);
    assertFalse(t.isAlive());
  }

  @Test
  void secondRun_skipsVerifiedFilesAndRefetchesChangedOnes() throws Exception {
    List<DatasetFile> files = listed(false);
    assertComplete(job(files).build().run());
    Files.write(out.resolve(names.get(7)), new byte[] {1, 2, 3});
    Files.delete(out.resolve(names.get(8)));
    DatasetReport again = job(files).build().run();
    assertComplete(again);
    assertEquals(38, again.count("skipped"), DatasetReports.text(again, 10));
    assertEquals(2, again.count("fetched"));
    long size78 = Files.size(a.resolve(names.get(7))) + Files.size(a.resolve(names.get(8)));
    assertTrue(again.fetchedBytes() <= size78 + 10, again.fetchedBytes() + " > " + size78);
    // without the record, checksums still prove the files: hashed, not fetched
    Files.delete(out.resolve(DatasetOutput.STATE));
    DatasetReport third = job(listed(true)).build().run();
    assertEquals(40, third.count("skipped"));
    assertEquals(0, third.fetchedBytes());
  }

  @Test
  void aFileNoReplicaServes_failsWithItsReasonsAndTheOthersArrive() throws Exception {
    for (Path root : List.of(a, b, c)) {
      Files.delete(root.resolve(names.get(2)));
    }
    List<DatasetFile> files = new ArrayList<>(listed(false));
    files.add(
        DatasetFile.of(
            names.get(2),
            -1,
            List.of(
                DatasetNames.resolve(a.toUri(), names.get(2)),
                DatasetNames.resolve(b.toUri(), names.get(2)))));
    DatasetReport r = job(files).build().run();
    assertFalse(r.complete());
    assertEquals(1, r.failures().size());
    DatasetFileReport f = r.failures().get(0);
    assertEquals(names.get(2), f.path());
    assertTrue(f.error().contains("no such file"), f.error());
    assertEquals(39, r.count("fetched"));
  }

  @Test
  void outputNamesThatCannotBeWritten_failAloneWithTheReason() throws Exception {
    Files.createDirectories(out);
    Files.createSymbolicLink(out.resolve("run 1"), dir);
    List<DatasetFile> files = new ArrayList<>(listed(false));
    URI any = files.get(0).sources().get(0);
    files.add(DatasetFile.of("conflict", -1, List.of(any)));
    files.add(DatasetFile.of("conflict/inside", -1, List.of(any)));
    files.add(DatasetFile.of(names.get(0) + ".part", -1, List.of(any)));
    DatasetReport r = job(files).build().run();
    Map<String, String> failed = new java.util.HashMap<>();
    for (DatasetFileReport f : r.failures()) {
      failed.put(f.path(), f.error());
    }
    assertTrue(failed.get("conflict").contains("also a directory"), failed.toString());
    assertTrue(
        failed.get(names.get(0) + ".part").contains("temporary file of " + names.get(0)),
        failed.toString());
    for (String n : names) {
      if (n.startsWith("run 1/")) {
        assertTrue(failed.get(n).contains("symbolic link"), n + ": " + failed.get(n));
      } else {
        assertFalse(failed.containsKey(n), n);
      }
    }
    assertEquals(names.stream().filter(n -> n.startsWith("run 1/")).count() + 2, failed.size());
    assertFalse(Files.exists(dir.resolve("sub-1")), "nothing written through the link");
    assertTrue(Files.isRegularFile(out.resolve("conflict/inside")));
  }

  /** A replica whose reads are slowed down: 64 KiB per {@code delayMillis}. */
  static Function<URI, RangeSource> slow(String marker, long delayMillis, AtomicInteger opened) {
    return u -> {
      FileRangeSource f = new FileRangeSource(u);
      if (!u.toString().contains(marker)) {
        return f;
      }
      return new RangeSource() {
        @Override
        public URI uri() {
          return u;
        }

        @Override
        public Validators probe() throws IOException {
          return f.probe();
        }

        @Override
        public ReadableByteChannel open(long offset, long length) throws IOException {
          opened.incrementAndGet();
          ReadableByteChannel ch = f.open(offset, length);
          return new ReadableByteChannel() {
            @Override
            public int read(ByteBuffer dst) throws IOException {
              try {
                Thread.sleep(delayMillis);
              } catch (InterruptedException e) {
                throw new IOException(e);
              }
              return ch.read(dst);
            }

            @Override
            public boolean isOpen() {
              return ch.isOpen();
            }

            @Override
            public void close() throws IOException {
              ch.close();
            }
          };
        }

        @Override
        public void close() {}
      };
    };
  }

  @Test
  void aSlowReplica_theJobDoesNotWaitForItsLastFile() throws Exception {
    // one 1.5 MB file that the slow replica would take 24 x 0.4 s ~ 10 s to serve
    Path big = a.resolve("big.bin");
    TestFiles.random(a, "big.bin", 1_500_000, 7);
    Files.copy(big, c.resolve("big.bin"));
    List<DatasetFile> files = new ArrayList<>();
    files.add(
        DatasetFile.of(
            "big.bin",
            1_500_000,
            List.of(c.resolve("big.bin").toUri(), a.resolve("big.bin").toUri())));
    AtomicInteger opened = new AtomicInteger();
    long t0 = System.nanoTime();
    DatasetReport r =
        job(files)
            .sourceFactory(slow("/c/", 400, opened))
            .coallocateAbove(1000)
            .concurrency(2)
            .build()
            .run();
    double took = (System.nanoTime() - t0) / 1e9;
    assertTrue(r.complete(), DatasetReports.text(r, 5));
    assertArrayEquals(Files.readAllBytes(big), Files.readAllBytes(out.resolve("big.bin")));
    assertTrue(took < 6, "took " + took + " s");
    // the slow replica started the file; the idle fast one took the rest over (a split at the
    // tail) or fetched it whole: either way it delivered most of it, and every byte once
    Map<String, Long> servers = r.files().get(0).servers();
    long fromA = bytesFrom(servers, "/a/");
    long fromC = bytesFrom(servers, "/c/");
    assertTrue(fromA > fromC, servers.toString());
    assertEquals(1_500_000, fromA + fromC, servers.toString());
    assertEquals(1, opened.get());
  }

  /** Bytes the server whose name ends with {@code suffix} delivered, 0 if none. */
  private static long bytesFrom(Map<String, Long> servers, String suffix) {
    return servers.entrySet().stream()
        .filter(e -> e.getKey().endsWith(suffix))
        .mapToLong(Map.Entry::getValue)
        .sum();
  }

  @Test
  void aLargeFile_isCoallocatedAcrossItsReplicas() throws Exception {
    TestFiles.random(a, "large.bin", 8_000_000, 9);
    for (Path root : List.of(b, c)) {
      Files.copy(a.resolve("large.bin"), root.resolve("large.bin"));
    }
    List<DatasetFile> files =
        List.of(
            DatasetFile.of(
                "large.bin",
                8_000_000,
                List.of(
                    a.resolve("large.bin").toUri(),
                    b.resolve("large.bin").toUri(),
                    c.resolve("large.bin").toUri())));
    AtomicInteger opened = new AtomicInteger();
    DatasetReport r =
        job(files).sourceFactory(slow("/", 5, opened)).coallocateAbove(0.01).build().run();
    assertTrue(r.complete(), DatasetReports.text(r, 5));
    assertArrayEquals(
        Files.readAllBytes(a.resolve("large.bin")), Files.readAllBytes(out.resolve("large.bin")));
    assertTrue(r.files().get(0).servers().size() >= 2, r.files().get(0).toString());
    assertNull(r.stopped());
    String json = DatasetReports.json(r);
    assertTrue(
        json.contains("\"fileReports\":[{\"path\":\"large.bin\",\"status\":\"fetched\""), json);
  }

  @Test
  void defaultConcurrency_followsThePlannedRatesAndTheMedianSize() throws Exception {
    List<DatasetFile> files = listed(false);
    assertEquals(12, Dataset.defaultConcurrency(files, List.of()));
    URI server = URI.create("http://h:80/");
    List<DatasetFile> remote = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      remote.add(DatasetFile.of("f" + i, 10_000, List.of(URI.create("http://h:80/f" + i))));
    }
    // 100 MB/s x 50 ms / 10 kB = 500, capped at 16 per server
    assertEquals(16, Dataset.defaultConcurrency(remote, List.of(new PredictedRate(server, 100e6))));
    // no forecast: as for 10 MB/s (x 50 ms / 10 kB = 50, capped at 16), never below 4
    assertEquals(16, Dataset.defaultConcurrency(remote, List.of()));
    List<DatasetFile> large = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      large.add(DatasetFile.of("g" + i, 50_000_000, List.of(URI.create("http://h:80/g" + i))));
    }
    assertEquals(4, Dataset.defaultConcurrency(large, List.of()));
    // a lower forecast does not lower it (1 MB/s x 50 ms / 10 kB would be 5): a rate learned from
    // small files is bound by latency at the concurrency used then
    assertEquals(16, Dataset.defaultConcurrency(remote, List.of(new PredictedRate(server, 1e6))));
    // a higher one raises it: 200 kB files at 10 MB/s (the assumption) give 3, so 4 (the floor);
    // at 40 MB/s 10
    List<DatasetFile> mid = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      mid.add(DatasetFile.of("m" + i, 200_000, List.of(URI.create("http://h:80/m" + i))));
    }
    assertEquals(4, Dataset.defaultConcurrency(mid, List.of()));
    assertEquals(10, Dataset.defaultConcurrency(mid, List.of(new PredictedRate(server, 40e6))));
    assertEquals(1, Dataset.defaultConcurrency(remote.subList(0, 1), List.of()));
  }

  @Test
  void journal_hasLinesOnlyForFilesLargeEnoughToMeasureTheirReplica() throws Exception {
    List<DatasetFile> files = listed(true);
    DatasetReport r = job(files).concurrency(4).build().run();
    assertComplete(r);
    Set<String> journaled = new HashSet<>();
    for (String line : Files.readAllLines(dir.resolve("j.jsonl"))) {
      String path = JournalLine.parse(line).path();
      journaled.add(path.substring(path.indexOf("/a/") + 3));
    }
    int small = 0;
    for (DatasetFile f : files) {
      boolean large = f.size() >= JournalLine.MIN_SAMPLE_BYTES;
      small += large ? 0 : 1;
      assertEquals(large, journaled.stream().anyMatch(p -> p.endsWith(f.path())), f.path());
    }
    assertTrue(small > 0 && small < files.size(), "both kinds in the tree: " + small);
  }
}
