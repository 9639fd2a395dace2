package org.braid.coalloc;

import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.Adler32;

/**
 * The output being written: {@code OUT.part}, preallocated to the full size and written with
 * positional writes, and {@code OUT.braid-ctl}, which records the verified byte ranges so that a
 * later run resumes. The final name appears only after {@link #commit}. Writes are thread-safe
 * (FileChannel positional writes); checkpoints are serialised.
 */
final class PartFile implements Closeable {
  /** Bytes of the part file mapped at a time to hash it. */
  static final long MAP_WINDOW = 16L << 20;

  /** Room kept free for the control file beside the data. */
  private static final long CONTROL_RESERVE = 1L << 20;

  final Path out;
  final Path part;
  final Path ctl;

  /** Where a checkpoint is written before it replaces {@link #ctl}. */
  final Path tmp;

  private final long size;
  private final ControlFile control;
  private final FileChannel ch;
  private final RangeSet resumed;

  private PartFile(Path out, long size, Map<URI, Validators> validators, boolean resume)
      throws IOException {
    this.out = out;
    this.part = out.resolveSibling(out.getFileName() + ".part");
    this.ctl = controlPath(out);
    this.tmp = ctl.resolveSibling(ctl.getFileName() + ".tmp");
    this.size = size;
    this.control = new ControlFile(ctl, part, size, new LinkedHashMap<>(validators));
    RangeSet prior = resume ? control.read() : null;
    boolean fresh = prior == null;
    if (fresh) {
      // deleting a symbolic link removes the link, never its target
      Files.deleteIfExists(ctl);
      Files.deleteIfExists(part);
      prior = new RangeSet();
    }
    Files.deleteIfExists(tmp);
    this.resumed = prior;
    requireSpace(size - prior.total());
    this.ch =
        fresh
            ? FileChannel.open(
                part,
                StandardOpenOption.CREATE_NEW,
                StandardOpenOption.READ,
                StandardOpenOption.WRITE,
                LinkOption.NOFOLLOW_LINKS)
            : FileChannel.open(
                part, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
    try {
      if (ch.size() != size) {
        ch.truncate(Math.min(ch.size(), size));
        if (size > 0) {
          // extend to the full size so positional writes never grow the file
          ch.write(ByteBuffer.allocate(1), size - 1);
        }
      }
    } catch (IOException e) {
      ch.close();
      if (fresh) {
        Files.deleteIfExists(part);
      }
      throw e;
    }
  }

  /**
   * Fails unless the part file's file system has room for {@code need} more bytes (plus a little
   * for the control file), naming the path and the bytes missing.
   */
  private void requireSpace(long need) throws IOException {
    Path dir = part.toAbsolutePath().getParent();
    long usable = Files.getFileStore(dir).getUsableSpace();
    long want = need + CONTROL_RESERVE;
    if (need > 0 && usable < want) {
      throw new DownloadException(
          "not enough free space for "
              + part
              + ": "
              + want
              + " bytes needed, "
              + usable
              + " available in "
              + dir
              + " ("
              + (want - usable)
              + " bytes, "
              + Reports.bytes(want - usable)
              + ", missing)",
          null,
          DownloadException.Kind.DISK);
    }
  }

  /** Opens the part file, resuming from the control file when it matches this download. */
  /** The control file of the download to {@code out}: {@code OUT.braid-ctl}. */
  static Path controlPath(Path out) {
    return out.resolveSibling(out.getFileName() + ".braid-ctl");
  }

  static PartFile open(Path out, long size, Map<URI, Validators> validators, boolean resume)
      throws IOException {
    OutputFiles.check(out);
    return new PartFile(out, size, validators, resume);
  }

  /** Byte ranges already verified by an earlier run. */
  RangeSet resumed() {
    return resumed;
  }

  void write(ByteBuffer src, long position) throws IOException {
    long pos = position;
    while (src.hasRemaining()) {
      pos += ch.write(src, pos);
    }
  }

  /**
   * Flushes data to disk, then records the given committed ranges atomically. The new control file
   * is created afresh (never through a link planted at its name); if it cannot be written (a full
   * disk), it is removed and the previous control file stays.
   */
  synchronized void checkpoint(RangeSet committed) throws IOException {
    ch.force(false);
    Files.deleteIfExists(tmp);
    try {
      try (BufferedWriter w =
          new BufferedWriter(
              new OutputStreamWriter(
                  Files.newOutputStream(
                      tmp,
                      StandardOpenOption.CREATE_NEW,
                      StandardOpenOption.WRITE,
                      LinkOption.NOFOLLOW_LINKS),
                  StandardCharsets.UTF_8))) {
        control.write(w, committed);
      }
      try {
        Files.move(tmp, ctl, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, ctl, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      try {
        Files.deleteIfExists(tmp);
      } catch (IOException cleaning) {
        e.addSuppressed(cleaning);
      }
      throw e;
    }
  }

  /**
   * Reads the whole file back once with a fixed buffer and returns the hex digests of the given
   * algorithms (names as in {@link Checksum}).
   */
  Map<String, String> digests(List<String> algorithms) throws IOException {
    RunningDigests d = runningDigests(algorithms);
    d.advance(size);
    return d.finish();
  }

  /** Digests of the file that are fed in order as its leading bytes become final. */
  RunningDigests runningDigests(List<String> algorithms) {
    return new RunningDigests(algorithms, 0, 1 << 20, true);
  }

  /**
   * Digests fed in file order from a start offset. For the whole file they are computed while the
   * download runs: {@link #advance} hashes from where it stopped up to a position below which the
   * file no longer changes (read back from the page cache), so that only the last stretch is left
   * to hash when the download completes. Not thread-safe; one caller (the download's supervisor)
   * drives it.
   */
  final class RunningDigests {
    private final List<MessageDigest> mds = new ArrayList<>();
    private final List<String> mdNames = new ArrayList<>();
    private final Adler32 adler;
    private final int buffer;
    private ByteBuffer buf;
    private final long from;
    private long hashed;

    /** Whether the file is hashed through mappings ({@link #hashMapped}) rather than reads. */
    private boolean map;

    private RunningDigests(List<String> algorithms, long from, int buffer, boolean map) {
      this.from = from;
      this.hashed = from;
      this.buffer = buffer;
      this.map = map && Unmapper.available();
      Adler32 a = null;
      for (String name : algorithms) {
        if (name.equals("adler32")) {
          a = new Adler32();
        } else {
          try {
            mds.add(MessageDigest.getInstance(name.toUpperCase(java.util.Locale.ROOT)));
            mdNames.add(name);
          } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(name, e);
          }
        }
      }
      this.adler = a;
    }

    /** Whether it hashes through mappings of the file (else through reads). */
    boolean mapped() {
      return map;
    }

    /** Where hashing has got to (the bytes from the start offset up to here are hashed). */
    long hashed() {
      return hashed;
    }

    /**
     * Hashes the file up to {@code upTo} (clamped to the size); the caller guarantees that bytes
     * below it are final. Does nothing if they are hashed already.
     */
    void advance(long upTo) throws IOException {
      long end = Math.min(upTo, size);
      while (hashed < end) {
        hashed += map ? hashMapped(end) : hashRead(end);
      }
    }

    /** Reads the next bytes below {@code end} into the buffer and hashes them; returns how many. */
    private int hashRead(long end) throws IOException {
      if (buf == null) {
        buf = ByteBuffer.allocate(buffer);
      }
      buf.clear();
      buf.limit((int) Math.min(buf.capacity(), end - hashed));
      int n = ch.read(buf, hashed);
      if (n < 0) {
        throw new IOException(part + " is shorter than " + size + " bytes");
      }
      buf.flip();
      update(buf);
      return n;
    }

    /**
     * Maps the next window below {@code end}, hashes it and unmaps it; returns its length. The
     * digests read the page cache in place: reading it back into a buffer first cost the hash
     * thread a third of its time at memory speed (issue 17: 1.1 of 3.6 CPU seconds for 2 GB). Where
     * mapping fails, falls back to reading for good.
     */
    private long hashMapped(long end) throws IOException {
      long len = Math.min(MAP_WINDOW, end - hashed);
      MappedByteBuffer m;
      try {
        m = ch.map(FileChannel.MapMode.READ_ONLY, hashed, len);
      } catch (IOException | UnsupportedOperationException e) {
        map = false;
        return hashRead(end);
      }
      try {
        update(m);
      } catch (InternalError e) {
        // a fault while reading the mapping: the file was truncated under us, or the disk failed
        throw new IOException(part + " could not be read back for hashing: " + e.getMessage(), e);
      } finally {
        Unmapper.unmap(m);
      }
      return len;
    }

    private void update(ByteBuffer b) {
      for (MessageDigest md : mds) {
        md.update(b.duplicate());
      }
      if (adler != null) {
        adler.update(b.duplicate());
      }
    }

    /** The hex digests by algorithm name; the whole file must have been hashed. */
    Map<String, String> finish() {
      if (from != 0 || hashed != size) {
        throw new IllegalStateException(
            "hashed bytes " + from + "-" + hashed + " of a " + size + "-byte file");
      }
      return values();
    }

    private Map<String, String> values() {
      Map<String, String> out = new LinkedHashMap<>();
      for (int i = 0; i < mds.size(); i++) {
        out.put(mdNames.get(i), HexFormat.of().formatHex(mds.get(i).digest()));
      }
      if (adler != null) {
        out.put("adler32", String.format("%08x", adler.getValue()));
      }
      return out;
    }
  }

  /**
   * Reads {@code [start, end)} back with a bounded buffer and returns its hex digest (algorithm
   * names as in {@link PieceHashes}).
   */
  String digest(String algorithm, long start, long end) throws IOException {
    RunningDigests d =
        new RunningDigests(
            List.of(algorithm), start, (int) Math.min(1 << 18, Math.max(1, end - start)), false);
    d.advance(end);
    return d.values().get(algorithm);
  }

  /**
   * Flushes the data written so far to the storage device (the file's size is on it since the part
   * file was preallocated, so its data is all a later read needs).
   */
  void flush() throws IOException {
    ch.force(false);
  }

  /**
   * Flushes the data (next to nothing after {@link #flush}), closes the part file and gives it its
   * final name; deletes the control file. A crash before the rename leaves the part file; after it,
   * the final name holds the flushed data.
   */
  void commit() throws IOException {
    ch.force(false);
    ch.close();
    OutputFiles.check(out);
    try {
      Files.move(part, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(part, out, StandardCopyOption.REPLACE_EXISTING);
    }
    Files.deleteIfExists(ctl);
  }

  /** Throws away the part and control files (the data is known to be bad). */
  void discard() throws IOException {
    ch.close();
    Files.deleteIfExists(part);
    Files.deleteIfExists(ctl);
  }

  @Override
  public void close() throws IOException {
    ch.close();
  }
}
