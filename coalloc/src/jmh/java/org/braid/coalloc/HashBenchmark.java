package org.braid.coalloc;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The whole-file hashing path of a download (issue 17: hashing must never be the bottleneck at
 * memory speed). Each operation hashes a 256 MiB part file that is in the page cache, the way the
 * download's prefix hasher reads it back, so the time per operation converts to a rate: 256 MiB /
 * (ms per op). {@code sha256Array} is the digest alone over bytes already in memory, the ceiling
 * for every other variant.
 *
 * <p>Run: {@code ./mvnw -q -o -pl coalloc -Pjmh test-compile exec:exec -Djmh.args="HashBenchmark
 * -f 1 -wi 3 -i 5"}. Results: docs/download.md ("Hashing at memory speed").
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class HashBenchmark {
  static final int SIZE = 256 << 20;

  /** Read buffer of the read-back variants, bytes. */
  @Param({"1048576"})
  public int buffer;

  Path dir;
  Path out;
  PartFile part;
  FileChannel ch;
  byte[] memory;

  @Setup(Level.Trial)
  public void setup() throws IOException {
    dir = Files.createTempDirectory("braid-hash-bench");
    out = dir.resolve("f");
    part =
        PartFile.open(
            out, SIZE, Map.of(URI.create("http://a/f"), new Validators(SIZE, null, null)), false);
    memory = new byte[SIZE];
    new Random(1).nextBytes(memory);
    part.write(ByteBuffer.wrap(memory), 0);
    ch = FileChannel.open(dir.resolve("f.part"), StandardOpenOption.READ);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    ch.close();
    part.discard();
    Files.deleteIfExists(dir);
  }

  static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The digest alone: SHA-256 over 256 MiB already in a byte array. */
  @Benchmark
  public byte[] sha256Array() {
    MessageDigest md = sha256();
    for (int off = 0; off < SIZE; off += buffer) {
      md.update(memory, off, Math.min(buffer, SIZE - off));
    }
    return md.digest();
  }

  /** What a download does: {@code PartFile.RunningDigests} (SHA-256 only) over the whole file. */
  @Benchmark
  public Map<String, String> runningDigests() throws IOException {
    PartFile.RunningDigests d = part.runningDigests(List.of("sha-256"));
    d.advance(SIZE);
    return d.finish();
  }

  /** Read back into a heap buffer with positional reads, then hash the array. */
  @Benchmark
  public byte[] readHeap() throws IOException {
    MessageDigest md = sha256();
    ByteBuffer b = ByteBuffer.allocate(buffer);
    for (long pos = 0; pos < SIZE; ) {
      b.clear();
      int n = ch.read(b, pos);
      md.update(b.array(), 0, n);
      pos += n;
    }
    return md.digest();
  }

  /** Read back into a direct buffer, then hash it (the digest copies it in 4 KiB steps). */
  @Benchmark
  public byte[] readDirect() throws IOException {
    MessageDigest md = sha256();
    ByteBuffer b = ByteBuffer.allocateDirect(buffer);
    for (long pos = 0; pos < SIZE; ) {
      b.clear();
      int n = ch.read(b, pos);
      b.flip();
      md.update(b);
      pos += n;
    }
    return md.digest();
  }

  /** Map the file in 64 MiB windows and hash the mapping. */
  @Benchmark
  public byte[] mapped() throws IOException {
    MessageDigest md = sha256();
    long window = 64L << 20;
    for (long pos = 0; pos < SIZE; pos += window) {
      MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_ONLY, pos, Math.min(window, SIZE - pos));
      md.update(m);
    }
    return md.digest();
  }

  /** Map the file and copy it into a heap array in buffer-sized steps, then hash the array. */
  @Benchmark
  public byte[] mappedToHeap() throws IOException {
    MessageDigest md = sha256();
    long window = 64L << 20;
    byte[] a = new byte[buffer];
    for (long pos = 0; pos < SIZE; pos += window) {
      MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_ONLY, pos, Math.min(window, SIZE - pos));
      while (m.hasRemaining()) {
        int n = Math.min(a.length, m.remaining());
        m.get(a, 0, n);
        md.update(a, 0, n);
      }
    }
    return md.digest();
  }
}
