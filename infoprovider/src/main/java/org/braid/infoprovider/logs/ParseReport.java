package org.braid.infoprovider.logs;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Counts what reading logs produced: lines, transfers, skipped lines (well formed, not a transfer)
 * and rejected lines by reason, with the first {@value #EXAMPLES} rejections kept with their file
 * and line number. Not thread-safe: one per reading thread, then {@link #merge}.
 */
public final class ParseReport {

  /** How many rejections are kept with their line number. */
  public static final int EXAMPLES = 20;

  /** One rejected line. */
  public record Rejection(String source, long line, String message) {
    @Override
    public String toString() {
      return source + ":" + line + ": " + message;
    }
  }

  private long lines;
  private long records;
  private long skipped;
  private long rejected;
  private final Map<String, Long> byReason = new TreeMap<>();
  private final List<Rejection> examples = new ArrayList<>();

  /** Counts a line that became a transfer record. */
  public void recordLine() {
    lines++;
    records++;
  }

  /** Counts a well-formed line that is not a transfer. */
  public void skipLine() {
    lines++;
    skipped++;
  }

  /** Counts a rejected line. */
  public void reject(String source, long line, String reason, String message) {
    lines++;
    rejected++;
    byReason.merge(reason, 1L, Long::sum);
    if (examples.size() < EXAMPLES) {
      examples.add(new Rejection(source, line, message));
    }
  }

  /** Adds another report's counts to this one. */
  public void merge(ParseReport other) {
    lines += other.lines;
    records += other.records;
    skipped += other.skipped;
    rejected += other.rejected;
    other.byReason.forEach((k, v) -> byReason.merge(k, v, Long::sum));
    for (Rejection r : other.examples) {
      if (examples.size() < EXAMPLES) {
        examples.add(r);
      }
    }
  }

  /** Lines read. */
  public long lines() {
    return lines;
  }

  /** Lines that became transfer records. */
  public long records() {
    return records;
  }

  /** Well-formed lines that are not transfers. */
  public long skipped() {
    return skipped;
  }

  /** Malformed lines. */
  public long rejected() {
    return rejected;
  }

  /** Rejected lines per reason, sorted by reason. */
  public Map<String, Long> rejectedByReason() {
    return Collections.unmodifiableMap(new TreeMap<>(byReason));
  }

  /** The first rejections, with file and line number. */
  public List<Rejection> examples() {
    return List.copyOf(examples);
  }
}
