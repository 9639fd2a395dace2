package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.braid.cli.mirror.Mirror;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** HTTP/1.1 pipelining: {@link HttpPipe} on its own, and whole downloads read through pipes. */
class PipeliningTest {
  @TempDir Path dir;

  private static byte[] read(ReadableByteChannel ch) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteBuffer b = ByteBuffer.allocate(8192);
    while (ch.read(b) >= 0) {
      out.write(b.array(), 0, b.position());
      b.clear();
    }
    return out.toByteArray();
  }

  private static byte[] slice(byte[] d, int from, int len) {
    byte[] out = new byte[len];
    System.arraycopy(d, from, out, 0, len);
    return out;
  }

  private byte[] data(int size) throws IOException {
    return Files.readAllBytes(TestFiles.random(dir, "src.bin", size, 7));
  }

  @Test
  void answersComeInOrder_onOneConnection_requestsSentAhead() throws Exception {
    byte[] d = data(300_000);
    try (PipeliningRangeServer srv = new PipeliningRangeServer(d, 4e6, n -> null);
        HttpRangeSource src = new HttpRangeSource(srv.uri(), SourceOptions.DEFAULT)) {
      src.probe();
      try (Pipe p = src.pipe()) {
        p.send(0, 100_000);
        p.send(200_000, 100_000);
        p.send(100_000, 50_000);
        assertArrayEquals(slice(d, 0, 100_000), read(p.next()));
        assertArrayEquals(slice(d, 200_000, 100_000), read(p.next()));
        assertArrayEquals(slice(d, 100_000, 50_000), read(p.next()));
        assertThrows(IllegalStateException.class, p::next);
      }
      assertEquals(2, srv.connections.get(), "the probe's connection and the pipe's");
      assertEquals(4, srv.requests.get());
      assertTrue(srv.waiting.get() >= 1, "no request was waiting: not pipelined");
    }
  }

  @Test
  void connectionClose_failsTheAnswersAfterIt() throws Exception {
    byte[] d = data(10_000);
    try (PipeliningRangeServer srv =
            new PipeliningRangeServer(d, 0, n -> n == 2 ? "Connection: close\r\n" : null);
        HttpRangeSource src = new HttpRangeSource(srv.uri(), SourceOptions.DEFAULT)) {
      src.probe();
      try (Pipe p = src.pipe()) {
        p.send(0, 100);
        p.send(100, 100);
        assertArrayEquals(slice(d, 0, 100), read(p.next()));
        SourceException e = assertThrows(SourceException.class, p::next);
        assertTrue(e.getMessage().contains("Connection: close"), e.getMessage());
      }
    }
  }

  @Test
  void badAnswers_failWithTheReason() throws Exception {
    byte[] d = data(10_000);
    String many = "X-Filler: yes\r\n".repeat(HttpLimits.MAX_HEADERS + 1);
    try (PipeliningRangeServer srv =
            new PipeliningRangeServer(
                d, 0, n -> n == 2 ? "Transfer-Encoding: chunked\r\n" : n == 3 ? many : null);
        HttpRangeSource src = new HttpRangeSource(srv.uri(), SourceOptions.DEFAULT)) {
      src.probe();
      try (Pipe p = src.pipe()) {
        p.send(0, 100);
        SourceException e = assertThrows(SourceException.class, p::next);
        assertTrue(e.getMessage().contains("Content-Length"), e.getMessage());
      }
      try (Pipe p = src.pipe()) {
        p.send(0, 100);
        SourceException e = assertThrows(SourceException.class, p::next);
        assertTrue(e.getMessage().contains("header lines"), e.getMessage());
      }
    }
  }

  @Test
  void download_pipelined_keepsOneConnectionPerFlow() throws Exception {
    byte[] d = data(6_000_000);
    try (PipeliningRangeServer a = new PipeliningRangeServer(d, 4e6, n -> null);
        PipeliningRangeServer b = new PipeliningRangeServer(d, 2e6, n -> null)) {
      Path out = dir.resolve("out");
      DownloadReport r =
          Download.builder()
              .sources(List.of(a.uri(), b.uri()))
              .output(out)
              .sourceOptions(SourceOptions.builder().pipelining(true).build())
              .journal(null)
              .build()
              .run();
      assertArrayEquals(d, Files.readAllBytes(out));
      assertEquals(6_000_000, r.bytes());
      for (PipeliningRangeServer s : List.of(a, b)) {
        // the first request (the probe folded into it) on a connection of its own, the rest on
        // the flow's pipe
        assertTrue(s.connections.get() <= 2, "connections: " + s.connections.get());
        assertTrue(s.requests.get() >= 2, "requests: " + s.requests.get());
      }
      assertTrue(a.waiting.get() + b.waiting.get() >= 1, "no request was sent ahead");
    }
  }

  @Test
  void download_pipelined_survivesADyingMirror_andReadsFiles() throws Exception {
    Path src = TestFiles.random(dir, "data.bin", 4_000_000, 3);
    try (Mirror dying =
            Mirror.builder(src).rate(4e6).fault(Mirror.Fault.DIE).faultAfter(1_000_000).start();
        Mirror good = Mirror.builder(src).rate(2e6).start()) {
      Path out = dir.resolve("out");
      Download.builder()
          .sources(List.of(dying.uri(), good.uri(), src.toUri()))
          .output(out)
          .sourceOptions(SourceOptions.builder().pipelining(true).build())
          .journal(null)
          .build()
          .run();
      assertArrayEquals(Files.readAllBytes(src), Files.readAllBytes(out));
    }
  }

  @Test
  void pipelined_renewsItsConnection_whenTheRateRises_withoutLosingAByte() throws Exception {
    int size = 12_000_000;
    byte[] d = data(size);
    byte[] out = new byte[size];
    try (PipeliningRangeServer srv = new PipeliningRangeServer(d, 1e6, n -> null);
        HttpRangeSource src = new HttpRangeSource(srv.uri(), SourceOptions.DEFAULT)) {
      src.probe();
      // the replica's link gets faster and faster after 2 s (as a warm connection's would after
      // the link sped up, if it could keep up)
      Thread faster =
          new Thread(
              () -> {
                try {
                  Thread.sleep(2000);
                  for (double r = 1.5e6; r < 20e6; r *= 1.5) {
                    srv.rate(r);
                    Thread.sleep(300);
                  }
                  srv.rate(0);
                } catch (InterruptedException e) {
                  // test over
                }
              });
      faster.setDaemon(true);
      faster.start();
      Replica replica = new Replica(0, srv.uri(), 0);
      BlockScheduler s =
          new BlockScheduler(
              size,
              List.of(replica),
              1,
              ((BlockPolicy.Spec) Scheme.adaptive()).create(),
              System::nanoTime,
              null,
              null,
              null);
      PipelinedFetch pf =
          new PipelinedFetch("t", s, (b, pos) -> b.get(out, (int) pos, b.remaining()));
      pf.renewNearReplicas();
      Thread t = new Thread(() -> pf.work(s.flows().get(0), src::pipe, srv.uri()));
      t.start();
      t.join(30_000);
      faster.interrupt();
      assertTrue(s.complete(), "all bytes delivered");
      assertArrayEquals(d, out);
      assertTrue(pf.renewals(replica) >= 1, "no renewal");
      // the probe's, the pipe's, and one per renewal
      assertEquals(2 + pf.renewals(replica), srv.connections.get());
    }
  }

  @Test
  void theEndGame_isTold_onceEveryByteIsGivenOut() throws Exception {
    BlockScheduler s = Schedulers.oneReplica(64 * 1024);
    assertFalse(s.ending(), "nothing given out yet");
    Lease l = s.tryAssign(s.flows().get(0));
    assertEquals(0, l.from);
    assertEquals(64 * 1024, l.block.end, "one block: the whole small file");
    assertTrue(s.ending());
  }
}
