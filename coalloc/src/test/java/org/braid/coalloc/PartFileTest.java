package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PartFileTest {
  @TempDir Path dir;
  final URI a = URI.create("http://a/f");
  final Map<URI, Validators> v =
      Map.of(a, new Validators(10, "\"e1\"", "Mon, 01 Jan 2024 00:00:00 GMT"));

  @Test
  void open_preallocatesFullSizeUnderPartName() throws Exception {
    Path out = dir.resolve("f");
    try (PartFile p = PartFile.open(out, 10_000_000, v, true)) {
      assertEquals(0, p.resumed().total());
      assertEquals(10_000_000, Files.size(dir.resolve("f.part")));
      assertFalse(Files.exists(out));
    }
  }

  @Test
  void checkpoint_thenReopen_resumesRecordedRanges() throws Exception {
    Path out = dir.resolve("f");
    try (PartFile p = PartFile.open(out, 10, v, true)) {
      p.write(ByteBuffer.wrap("abc".getBytes(StandardCharsets.US_ASCII)), 2);
      RangeSet c = new RangeSet();
      c.add(2, 5);
      c.add(7, 9);
      p.checkpoint(c);
    }
    try (PartFile p = PartFile.open(out, 10, v, true)) {
      assertEquals(List.of(new ByteRange(2, 5), new ByteRange(7, 9)), p.resumed().list());
      p.commit();
    }
    byte[] data = Files.readAllBytes(out);
    assertEquals("abc", new String(data, 2, 3, StandardCharsets.US_ASCII));
    assertFalse(Files.exists(dir.resolve("f.braid-ctl")));
    assertFalse(Files.exists(dir.resolve("f.part")));
  }

  @Test
  void reopen_withOtherSize_startsOver() throws Exception {
    Path out = dir.resolve("f");
    try (PartFile p = PartFile.open(out, 10, v, true)) {
      RangeSet c = new RangeSet();
      c.add(0, 5);
      p.checkpoint(c);
    }
    Map<URI, Validators> v11 = Map.of(a, new Validators(11, "\"e1\"", null));
    try (PartFile p = PartFile.open(out, 11, v11, true)) {
      assertEquals(0, p.resumed().total());
      assertEquals(11, Files.size(dir.resolve("f.part")));
    }
  }

  @Test
  void resumeFalse_ignoresControlFile() throws Exception {
    Path out = dir.resolve("f");
    try (PartFile p = PartFile.open(out, 10, v, true)) {
      RangeSet c = new RangeSet();
      c.add(0, 5);
      p.checkpoint(c);
    }
    try (PartFile p = PartFile.open(out, 10, v, false)) {
      assertEquals(0, p.resumed().total());
    }
  }

  @Test
  void digests_matchJdkAlgorithms() throws Exception {
    Path out = dir.resolve("f");
    try (PartFile p = PartFile.open(out, 3, v, true)) {
      p.write(ByteBuffer.wrap("abc".getBytes(StandardCharsets.US_ASCII)), 0);
      Map<String, String> d = p.digests(List.of("sha-256", "sha-1", "md5", "adler32"));
      assertEquals(
          "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", d.get("sha-256"));
      assertEquals("a9993e364706816aba3e25717850c26c9cd0d89d", d.get("sha-1"));
      assertEquals("900150983cd24fb0d6963f7d28e17f72", d.get("md5"));
      assertEquals("024d0127", d.get("adler32"));
    }
  }

  @Test
  void rangeSet_mergesAndRemoves() {
    RangeSet s = new RangeSet();
    s.add(0, 10);
    s.add(10, 20);
    assertEquals(1, s.list().size());
    s.remove(5, 15);
    assertEquals(10, s.total());
    assertTrue(s.contains(0, 5));
    assertFalse(s.contains(4, 6));
    assertEquals(new ByteRange(0, 5), s.takeFirst(Long.MAX_VALUE));
  }
}
