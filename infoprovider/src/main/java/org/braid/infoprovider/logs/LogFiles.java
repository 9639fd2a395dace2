package org.braid.infoprovider.logs;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;
import org.braid.infoprovider.TransferRecord;

/** One-shot reading of whole log files, plain or gzip-compressed. */
public final class LogFiles {

  /** The longest line accepted: 64 KiB. Longer lines are rejected as "line too long". */
  public static final int MAX_LINE_BYTES = 65_536;

  private LogFiles() {}

  /**
   * Reads a whole log file (gzip-compressed if it starts with the gzip magic bytes), handing each
   * transfer to {@code sink} and counting every line in {@code report}. Malformed lines are
   * counted, never fatal.
   *
   * @throws java.nio.file.NoSuchFileException if the file does not exist
   * @throws IOException if it cannot be read
   */
  public static void read(
      Path file, LogFormat format, Consumer<TransferRecord> sink, ParseReport report)
      throws IOException {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(format, "format");
    Objects.requireNonNull(sink, "sink");
    Objects.requireNonNull(report, "report");
    LogParser parser = format.parser();
    String source = file.toString();
    try (InputStream in = open(file)) {
      LineReader.read(
          in,
          0,
          0,
          MAX_LINE_BYTES,
          /* finalLineComplete= */ true,
          new LineReader.Handler() {
            @Override
            public void line(String text, long lineNo, long endOffset) {
              handle(parser, source, text, lineNo, sink, report);
            }

            @Override
            public void tooLong(long lineNo, long endOffset) {
              report.reject(
                  source,
                  lineNo,
                  "line too long",
                  "line too long (over " + MAX_LINE_BYTES + " bytes)");
            }
          });
    }
  }

  /** Parses one line into the sink and the report. Empty lines are skipped silently. */
  static void handle(
      LogParser parser,
      String source,
      String text,
      long lineNo,
      Consumer<TransferRecord> sink,
      ParseReport report) {
    if (text.isBlank()) {
      report.skipLine();
      return;
    }
    try {
      TransferRecord r = parser.parse(text);
      if (r == null) {
        report.skipLine();
      } else {
        report.recordLine();
        sink.accept(r);
      }
    } catch (MalformedLineException e) {
      report.reject(source, lineNo, e.reason(), e.getMessage());
    }
  }

  /** Whether a file starts with the gzip magic bytes. */
  static boolean isGzip(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return in.read() == 0x1f && in.read() == 0x8b;
    }
  }

  /** Opens a file, decompressing it when it starts with the gzip magic bytes. */
  static InputStream open(Path file) throws IOException {
    InputStream raw = new BufferedInputStream(Files.newInputStream(file), 65_536);
    raw.mark(2);
    int b1 = raw.read();
    int b2 = raw.read();
    raw.reset();
    if (b1 == 0x1f && b2 == 0x8b) {
      return new GZIPInputStream(raw, 65_536);
    }
    return raw;
  }
}
