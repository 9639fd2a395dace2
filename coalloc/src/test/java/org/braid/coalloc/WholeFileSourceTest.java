package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import org.braid.cli.mirror.Mirror;
import org.braid.cli.mirror.Mirror.Fault;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A server that ignores Range serves as one whole-file flow: alone or beside range servers. */
class WholeFileSourceTest {
  static final int SIZE = 3_000_000;
  @TempDir Path dir;
  Path src;
  Path out;

  @BeforeEach
  void setUp() throws Exception {
    src = TestFiles.random(dir, "data.bin", SIZE, 11);
    out = dir.resolve("out.bin");
  }

  private Mirror noRange(double rate) throws IOException {
    return Mirror.builder(src).rate(rate).fault(Fault.IGNORE_RANGE).faultAfter(0).start();
  }

  private DownloadReport download(Scheme scheme, Mirror... mirrors) throws IOException {
    return Download.builder()
        .sources(Arrays.stream(mirrors).map(Mirror::uri).toList())
        .output(out)
        .scheme(scheme)
        .journal(null)
        .sourceOptions(SourceOptions.builder().stallTimeout(Duration.ofSeconds(5)).build())
        .build()
        .run();
  }

  @Test
  void probe_serverIgnoringRange_reportsSizeAndNoRanges() throws Exception {
    try (Mirror m = noRange(0);
        HttpRangeSource s = new HttpRangeSource(m.uri(), SourceOptions.DEFAULT)) {
      Validators v = s.probe();
      assertEquals(SIZE, v.size());
      assertFalse(v.ranges());
      // the probe does not read the file: one request, at most a few buffers of it sent
      assertEquals(1, m.requests());
    }
  }

  @Test
  void open_rangeOfWholeFileServer_readsFromTheStartAndKeepsTheRange() throws Exception {
    byte[] all = Files.readAllBytes(src);
    try (Mirror m = noRange(0);
        HttpRangeSource s = new HttpRangeSource(m.uri(), SourceOptions.DEFAULT)) {
      s.probe();
      ByteBuffer b = ByteBuffer.allocate(1000);
      try (ReadableByteChannel ch = s.open(1_000_000, 1000)) {
        while (b.hasRemaining() && ch.read(b) >= 0) {
          // fill
        }
      }
      assertArrayEquals(Arrays.copyOfRange(all, 1_000_000, 1_001_000), b.array());
    }
  }

  @Test
  void onlySource_ignoresRange_downloadsWholeFile() throws Exception {
    try (Mirror m = noRange(0)) {
      DownloadReport r = download(Scheme.adaptive(), m);
      assertArrayEquals(Files.readAllBytes(src), Files.readAllBytes(out));
      assertNull(r.replicas().get(0).dropped());
      assertEquals(SIZE, r.replicas().get(0).bytes());
      assertEquals(1, m.requests() - 1, "one request after the probe");
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"adaptive", "single", "brute", "conservative", "aggressive"})
  void besideRangeServers_everyScheme_fileIdentical(String scheme) throws Exception {
    try (Mirror whole = noRange(3e6);
        Mirror a = Mirror.builder(src).rate(2e6).start();
        Mirror b = Mirror.builder(src).rate(2e6).start()) {
      DownloadReport r = download(Scheme.parse(scheme, 6), whole, a, b);
      assertArrayEquals(Files.readAllBytes(src), Files.readAllBytes(out));
      long sum = r.replicas().stream().mapToLong(ReplicaReport::bytes).sum();
      assertEquals(SIZE, sum);
      for (ReplicaReport p : r.replicas()) {
        assertNull(p.dropped(), p.toString());
      }
    }
  }

  @Test
  void besideRangeServer_adaptive_bothDeliverAndWholeFileServerIsNeverAskedForRanges()
      throws Exception {
    try (Mirror whole = noRange(3e6);
        Mirror a = Mirror.builder(src).rate(3e6).start()) {
      DownloadReport r = download(Scheme.adaptive(), whole, a);
      assertArrayEquals(Files.readAllBytes(src), Files.readAllBytes(out));
      assertTrue(r.replicas().get(0).bytes() > SIZE / 5, r.replicas().toString());
      assertTrue(r.replicas().get(1).bytes() > SIZE / 5, r.replicas().toString());
      // the probe and one whole-file request: a second would read the file's start again
      assertEquals(2, whole.requests(), r.replicas().toString());
    }
  }
}
