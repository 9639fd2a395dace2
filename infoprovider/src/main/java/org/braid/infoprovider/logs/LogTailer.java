package org.braid.infoprovider.logs;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import org.braid.infoprovider.TransferRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads what is new in one configured log and its rotated siblings, remembering how far it got in a
 * {@link TailSink}.
 *
 * <p>Rotation: the live file {@code access.log} and its rotated siblings in the same directory
 * ({@code access.log.1}, {@code access.log.2.gz}, {@code access.log-20261122}, {@code
 * access.log-20261122.gz}: the name followed by '.' or '-' and digits, optionally {@code .gz}) are
 * all read; each file is known by the fingerprint of its first line, so a file renamed by
 * logrotate, copied by copytruncate or compressed later is recognised and read on from where
 * reading stopped. Gzip files are read once to their end and then marked complete. Every stored
 * transfer carries a hash of its line and of where it starts (the file's fingerprint and offset) as
 * key, so a line read twice (after a crash, or a rotation seen late) is never counted twice, while
 * byte-identical lines of two transfers count as two. A log that disappears is reported ({@link
 * #missing()}) and looked for again on the next poll.
 *
 * <p>Not thread-safe: one thread polls a tailer.
 */
public final class LogTailer {

  private static final Logger LOG = LoggerFactory.getLogger(LogTailer.class);
  private static final int BATCH_LINES = 10_000;

  private final Path path;
  private final LogFormat format;
  private final TailSink sink;
  private final LogParser parser;
  private final String source;
  private final LineHashes hashes;
  private final ParseReport report = new ParseReport();
  private final String volume;
  private final Consumer<TransferRecord> onStored;
  private final Set<Path> unreadable = new HashSet<>();
  private boolean missing;

  /**
   * Creates a tailer for the log at {@code path}; transfers keep the volume their line names.
   *
   * @throws NullPointerException if an argument is null
   */
  public LogTailer(Path path, LogFormat format, TailSink sink) {
    this(path, format, sink, null, r -> {});
  }

  /**
   * Creates a tailer for the log at {@code path} whose transfers are filed under {@code volume}
   * (null: the volume each line names), telling {@code onStored} about each transfer the sink
   * stored for the first time.
   *
   * @throws NullPointerException if path, format, sink or onStored is null
   */
  public LogTailer(
      Path path,
      LogFormat format,
      TailSink sink,
      String volume,
      Consumer<TransferRecord> onStored) {
    this.volume = volume;
    this.onStored = Objects.requireNonNull(onStored, "onStored");
    this.path = Objects.requireNonNull(path, "path").toAbsolutePath().normalize();
    this.format = Objects.requireNonNull(format, "format");
    this.sink = Objects.requireNonNull(sink, "sink");
    this.parser = format.parser();
    this.source = this.path.toString();
    this.hashes = new LineHashes(source);
  }

  /** The live log's path. */
  public Path path() {
    return path;
  }

  /** The log's format. */
  public LogFormat format() {
    return format;
  }

  /** Whether the live log was missing at the last poll. */
  public boolean missing() {
    return missing;
  }

  /** What this tailer has read since it was created (counts and first rejections). */
  public ParseReport report() {
    return report;
  }

  /**
   * Reads everything new in the log and its rotated siblings. Malformed lines are counted; a file
   * that vanishes while being read is skipped until the next poll.
   *
   * @return what this poll read
   * @throws IOException if the sink fails (the store), never for a bad or missing log
   */
  public ParseReport poll() throws IOException {
    ParseReport delta = new ParseReport();
    List<Path> files = RotatedFiles.candidates(path);
    boolean liveMissing = !Files.isRegularFile(path);
    if (liveMissing != missing) {
      if (liveMissing) {
        LOG.warn("log {}: missing; will look for it again", source);
      } else {
        LOG.info("log {}: present", source);
      }
      missing = liveMissing;
    }
    for (Path f : files) {
      try {
        readFile(f, !f.equals(path), delta);
        unreadable.remove(f);
      } catch (SinkFailure e) {
        throw e.getCause();
      } catch (NoSuchFileException e) {
        LOG.info("log {}: {} vanished while reading; will retry", source, f);
      } catch (IOException e) {
        // One unreadable file (permissions, I/O error) must not stop the others; warn once.
        if (unreadable.add(f)) {
          LOG.warn("log {}: cannot read {}: {}; will retry", source, f, e.toString());
        }
      }
    }
    report.merge(delta);
    return delta;
  }

  private void readFile(Path f, boolean rotated, ParseReport delta) throws IOException {
    boolean gz = LogFiles.isGzip(f);
    String fp;
    try (InputStream in = LogFiles.open(f)) {
      fp = hashes.fingerprint(in);
    }
    if (fp == null) {
      return; // empty, or the first line is still being written
    }
    FilePosition pos;
    try {
      pos = sink.position(source, fp);
    } catch (IOException e) {
      throw new SinkFailure(e);
    }
    if (pos != null && pos.complete()) {
      return;
    }
    long offset = pos == null ? 0 : pos.offset();
    long lines = pos == null ? 0 : pos.lines();
    String fileKey = RotatedFiles.fileKey(f);
    if (!gz) {
      long size = Files.size(f);
      if (size == offset) {
        return;
      }
      if (size < offset) {
        // Same first line but shorter: rewritten in place. Read again; line keys stop doubles.
        LOG.info(
            "log {}: {} shrank from {} to {} bytes; reading it again", source, f, offset, size);
        offset = 0;
        lines = 0;
      }
    }
    InputStream in = RotatedFiles.openAt(f, gz, offset);
    if (in == null) {
      // A gzip file shorter than the stored offset: not the file we read. Read it all again.
      offset = 0;
      lines = 0;
      in = RotatedFiles.openAt(f, gz, 0);
    }
    String label = rotated ? source + " (" + f.getFileName() + ")" : source;
    Batch batch = new Batch(fp, fileKey, offset, lines);
    try (InputStream src = in) {
      LineReader.read(
          src,
          offset,
          lines,
          LogFiles.MAX_LINE_BYTES,
          /* finalLineComplete= */ gz,
          new LineReader.Handler() {
            @Override
            public void line(String text, long lineNo, long endOffset) {
              if (text.isBlank()) {
                batch.report.skipLine();
              } else {
                String key = hashes.key(fp, batch.offset, text);
                try {
                  TransferRecord r = parser.parse(text);
                  if (r == null) {
                    batch.report.skipLine();
                  } else {
                    batch.report.recordLine();
                    batch.records.add(
                        new TailSink.KeyedRecord(key, volume == null ? r : r.withVolume(volume)));
                  }
                } catch (MalformedLineException e) {
                  batch.report.reject(label, lineNo, e.reason(), e.getMessage());
                  batch.rejections.add(new TailSink.KeyedRejection(key, e.reason()));
                }
              }
              batch.advance(endOffset, lineNo);
            }

            @Override
            public void tooLong(long lineNo, long endOffset) {
              batch.report.reject(
                  label,
                  lineNo,
                  "line too long",
                  "line too long (over " + LogFiles.MAX_LINE_BYTES + " bytes)");
              batch.rejections.add(
                  new TailSink.KeyedRejection(hashes.key(fp, batch.offset, ""), "line too long"));
              batch.advance(endOffset, lineNo);
            }
          });
    }
    batch.flush(/* complete= */ gz);
    delta.merge(batch.total);
  }

  /** A failure of the sink (the store), as opposed to one of the log file: it stops the poll. */
  private static final class SinkFailure extends RuntimeException {
    SinkFailure(IOException cause) {
      super(cause);
    }

    @Override
    public synchronized IOException getCause() {
      return (IOException) super.getCause();
    }
  }

  /** Lines read since the last commit, committed every {@value #BATCH_LINES} lines. */
  private final class Batch {
    final String fingerprint;
    final String fileKey;
    final List<TailSink.KeyedRecord> records = new ArrayList<>();
    final List<TailSink.KeyedRejection> rejections = new ArrayList<>();
    ParseReport report = new ParseReport();
    final ParseReport total = new ParseReport();
    long offset;
    long lines;
    int pending;

    Batch(String fingerprint, String fileKey, long offset, long lines) {
      this.fingerprint = fingerprint;
      this.fileKey = fileKey;
      this.offset = offset;
      this.lines = lines;
    }

    void advance(long endOffset, long lineNo) {
      offset = endOffset;
      lines = lineNo;
      if (++pending >= BATCH_LINES) {
        flush(false);
      }
    }

    void flush(boolean complete) {
      if (pending == 0 && !complete) {
        return;
      }
      List<TransferRecord> stored;
      try {
        stored =
            sink.commit(
                new FilePosition(source, fingerprint, fileKey, offset, lines, complete),
                List.copyOf(records),
                List.copyOf(rejections));
      } catch (IOException e) {
        throw new SinkFailure(e);
      }
      stored.forEach(onStored);
      total.merge(report);
      records.clear();
      rejections.clear();
      report = new ParseReport();
      pending = 0;
    }
  }
}
