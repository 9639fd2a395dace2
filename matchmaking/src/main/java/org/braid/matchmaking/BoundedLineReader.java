package org.braid.matchmaking;

import java.io.Closeable;
import java.io.IOException;
import java.io.Reader;
import java.util.Objects;

/**
 * Reads lines of ClassAd input without ever holding more than a bounded part of one: a line longer
 * than the limit is cut to {@code maxLineLength + 1} characters and the rest of it is read and
 * dropped as it streams past, so that a 2 GB line costs 2 GB of reading but not 2 GB of memory. The
 * cut line is still one line, longer than the limit, so a parser with the same limit ({@link
 * ParseOptions#maxLength()}) rejects it with a one-line error and the next line reads normally.
 *
 * <p>Lines end at {@code \n}, {@code \r\n} or {@code \r}, as with {@link
 * java.io.BufferedReader#readLine()}. Not thread-safe.
 */
public final class BoundedLineReader implements Closeable {

  private final Reader in;
  private final int maxLineLength;
  private final char[] buf = new char[8192];
  private int pos;
  private int end;
  private boolean skipLf; // the last line ended with \r: a \n right after it belongs to it
  private boolean lastTooLong;

  /**
   * Reads lines from {@code in}, keeping at most {@code maxLineLength + 1} characters of each.
   *
   * @throws NullPointerException if {@code in} is null
   * @throws IllegalArgumentException if {@code maxLineLength} is not positive or is {@link
   *     Integer#MAX_VALUE}
   */
  public BoundedLineReader(Reader in, int maxLineLength) {
    this.in = Objects.requireNonNull(in, "in");
    if (maxLineLength <= 0 || maxLineLength == Integer.MAX_VALUE) {
      throw new IllegalArgumentException("maxLineLength out of range: " + maxLineLength);
    }
    this.maxLineLength = maxLineLength;
  }

  /**
   * The next line without its end, or null at the end of the input. A line longer than the limit
   * comes back as its first {@code maxLineLength + 1} characters ({@link #lastLineTooLong()} is
   * then true).
   *
   * @throws IOException if the underlying reader fails
   */
  public String readLine() throws IOException {
    StringBuilder line = null;
    while (true) {
      if (pos == end && !fill()) {
        return line == null ? null : done(line);
      }
      if (skipLf) {
        skipLf = false;
        if (buf[pos] == '\n') {
          pos++;
          continue;
        }
      }
      if (line == null) {
        line = new StringBuilder();
      }
      int start = pos;
      while (pos < end && buf[pos] != '\n' && buf[pos] != '\r') {
        pos++;
      }
      keep(line, start, pos);
      if (pos < end) {
        skipLf = buf[pos] == '\r';
        pos++;
        return done(line);
      }
    }
  }

  /** Appends what still fits under the cut; the rest is dropped. */
  private void keep(StringBuilder line, int from, int to) {
    int n = Math.min(maxLineLength + 1 - line.length(), to - from);
    if (n > 0) {
      line.append(buf, from, n);
    }
  }

  private String done(StringBuilder line) {
    lastTooLong = line.length() > maxLineLength;
    return line.toString();
  }

  private boolean fill() throws IOException {
    int n;
    do {
      n = in.read(buf, 0, buf.length);
    } while (n == 0);
    if (n < 0) {
      pos = 0;
      end = 0;
      return false;
    }
    pos = 0;
    end = n;
    return true;
  }

  /** True when the line {@link #readLine()} last returned was longer than the limit (and cut). */
  public boolean lastLineTooLong() {
    return lastTooLong;
  }

  /** Closes the underlying reader. */
  @Override
  public void close() throws IOException {
    in.close();
  }
}
