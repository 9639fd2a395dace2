package org.braid.infoprovider.stats;

import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;
import org.braid.infoprovider.store.Point;
import org.braid.infoprovider.wire.SeriesJson;
import org.braid.predictors.Series;
import org.braid.predictors.SeriesReaders;

/**
 * Reads a probe series file for a forecast with the regression models ({@code braid predict
 * --network FILE --disk FILE}): either {@code timestamp,value} lines ({@link
 * SeriesReaders#readCsv}, the format the prediction study exports a provider's store in) or the
 * provider's own export of a series, its answer to {@code GET /v1/series/NAME} ({@link
 * SeriesJson}), told apart by the first character that is not white space. Gzip input is read as
 * well.
 */
public final class ProbeFiles {

  /** The largest JSON export read: {@value} bytes. */
  public static final int MAX_JSON_BYTES = 64 << 20;

  private ProbeFiles() {}

  /**
   * Reads one probe series.
   *
   * @throws IllegalArgumentException naming the file (and line, for csv) and the problem, for
   *     malformed input, samples out of time order, or a JSON export above {@link #MAX_JSON_BYTES}
   * @throws IOException if the file cannot be read
   */
  public static Series read(Path file) throws IOException {
    byte[] json;
    try (InputStream in = open(file)) {
      PushbackInputStream p = new PushbackInputStream(in, 1);
      int c;
      do {
        c = p.read();
      } while (c == ' ' || c == '\t' || c == '\r' || c == '\n');
      if (c != '{') {
        return SeriesReaders.readCsv(file);
      }
      p.unread(c);
      json = p.readNBytes(MAX_JSON_BYTES + 1);
    }
    if (json.length > MAX_JSON_BYTES) {
      throw new IllegalArgumentException(
          file + ": JSON series export larger than " + MAX_JSON_BYTES + " bytes");
    }
    SeriesJson.Answer a;
    try {
      a = SeriesJson.read(json);
    } catch (IOException e) {
      throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
    }
    Series.Builder b =
        Series.builder(a.name().isEmpty() ? file.getFileName().toString() : a.name());
    for (Point pt : a.points()) {
      try {
        b.add(pt.time(), pt.value());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
      }
    }
    return b.build();
  }

  private static InputStream open(Path file) throws IOException {
    PushbackInputStream in = new PushbackInputStream(Files.newInputStream(file), 2);
    byte[] magic = in.readNBytes(2);
    in.unread(magic);
    return magic.length == 2 && (magic[0] & 0xff) == 0x1f && (magic[1] & 0xff) == 0x8b
        ? new GZIPInputStream(in, 1 << 16)
        : in;
  }
}
