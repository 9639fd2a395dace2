package org.braid.infoprovider.logs;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Splits a byte stream into lines at '\n' (a trailing '\r' is dropped), decoding UTF-8 with
 * replacement. Lines longer than the limit are skipped and reported, never buffered whole, so
 * memory stays flat whatever the input.
 */
final class LineReader {

  /** Receives lines with their number and the stream offset just after their terminator. */
  interface Handler {
    void line(String text, long lineNo, long endOffset);

    void tooLong(long lineNo, long endOffset);
  }

  private LineReader() {}

  /**
   * Reads lines until the end of the stream.
   *
   * @param in the stream, positioned at {@code offset}
   * @param offset the offset of the first byte of {@code in}
   * @param lineNo the number of lines before {@code offset}
   * @param maxLineBytes the longest line accepted
   * @param finalLineComplete whether bytes after the last '\n' form a line (a finished file) or are
   *     still being written (a live log)
   * @return the offset just after the last line handed over
   */
  static long read(
      InputStream in,
      long offset,
      long lineNo,
      int maxLineBytes,
      boolean finalLineComplete,
      Handler handler)
      throws IOException {
    byte[] buf = new byte[Math.max(65_536, maxLineBytes + 1)];
    int len = 0; // bytes in buf
    long bufStart = offset; // stream offset of buf[0]
    boolean skipping = false; // inside an over-long line
    long line = lineNo;
    long lastEnd = offset; // just after the last line handed over
    while (true) {
      int r = in.read(buf, len, buf.length - len);
      if (r < 0) {
        break;
      }
      len += r;
      int from = 0;
      for (int i = indexOf(buf, from, len); i >= 0; i = indexOf(buf, from, len)) {
        line++;
        long end = bufStart + i + 1;
        int stop = i > from && buf[i - 1] == '\r' ? i - 1 : i;
        if (skipping || stop - from > maxLineBytes) {
          handler.tooLong(line, end);
          skipping = false;
        } else {
          handler.line(new String(buf, from, stop - from, StandardCharsets.UTF_8), line, end);
        }
        lastEnd = end;
        from = i + 1;
      }
      if (from == 0 && len == buf.length) {
        // No newline in a full buffer: an over-long line. Drop what we have and keep skipping.
        skipping = true;
        bufStart += len;
        len = 0;
        continue;
      }
      System.arraycopy(buf, from, buf, 0, len - from);
      len -= from;
      bufStart += from;
    }
    if (finalLineComplete && (len > 0 || skipping)) {
      line++;
      long end = bufStart + len;
      if (skipping || len > maxLineBytes) {
        handler.tooLong(line, end);
      } else {
        int stop = buf[len - 1] == '\r' ? len - 1 : len;
        handler.line(new String(buf, 0, stop, StandardCharsets.UTF_8), line, end);
      }
      return end;
    }
    return lastEnd;
  }

  private static int indexOf(byte[] buf, int from, int to) {
    for (int i = from; i < to; i++) {
      if (buf[i] == '\n') {
        return i;
      }
    }
    return -1;
  }
}
