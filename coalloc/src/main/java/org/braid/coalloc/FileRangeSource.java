package org.braid.coalloc;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A replica on a local or mounted file system ({@code file:} URL). Each range opens the file and
 * reads with positional reads. The size is checked against the probe on every open.
 */
public final class FileRangeSource implements RangeSource {
  private final URI uri;
  private final Path path;
  private volatile Validators probed;

  /**
   * Creates a source for a {@code file:} URL.
   *
   * @throws IllegalArgumentException if the URL is not a file URL
   */
  public FileRangeSource(URI uri) {
    if (!"file".equalsIgnoreCase(uri.getScheme())) {
      throw new IllegalArgumentException("not a file: URL: " + uri);
    }
    this.uri = uri;
    this.path = Path.of(uri);
  }

  @Override
  public URI uri() {
    return uri;
  }

  @Override
  public Validators probe() throws IOException {
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
      Validators v = new Validators(ch.size(), null, null);
      probed = v;
      return v;
    } catch (NoSuchFileException e) {
      throw new SourceException(uri, "no such file", false, e);
    }
  }

  @Override
  public ReadableByteChannel open(long offset, long length) throws IOException {
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException("range must not be negative: " + offset + "+" + length);
    }
    FileChannel ch;
    try {
      ch = FileChannel.open(path, StandardOpenOption.READ);
    } catch (NoSuchFileException e) {
      throw new SourceException(uri, "no such file", false, e);
    }
    long size = ch.size();
    Validators p = probed;
    if (p != null && p.size() != size) {
      ch.close();
      throw new SourceException.ReplicaChangedException(
          uri, "size changed from " + p.size() + " to " + size + " bytes");
    }
    if (offset + length > size) {
      ch.close();
      throw new SourceException.BadRangeException(
          uri, "range " + offset + "+" + length + " is past the end of the file (" + size + ")");
    }
    return new ReadableByteChannel() {
      long pos = offset;
      final long end = offset + length;

      @Override
      public int read(ByteBuffer dst) throws IOException {
        if (pos >= end) {
          return -1;
        }
        int limit = dst.limit();
        if (dst.remaining() > end - pos) {
          dst.limit(dst.position() + (int) (end - pos));
        }
        try {
          int n = ch.read(dst, pos);
          if (n < 0) {
            throw new SourceException.BodyLengthException(
                uri, "file ended at " + pos + ", expected " + end + " bytes", null);
          }
          pos += n;
          return n;
        } finally {
          dst.limit(limit);
        }
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
}
