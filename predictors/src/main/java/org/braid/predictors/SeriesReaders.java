package org.braid.predictors;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PushbackInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;

/**
 * Reads series from files: plain {@code timestamp,value} files and the SLAC HPSS transfer records.
 * Gzip input is detected by its magic bytes. Lines are limited to {@value #MAX_LINE} characters.
 */
public final class SeriesReaders {

  /** The longest line accepted, in characters. */
  public static final int MAX_LINE = 64 * 1024;

  private SeriesReaders() {}

  /**
   * What a reader produced: the series, and the lines it skipped with their reasons.
   *
   * @param series the series, in a stable order
   * @param rejected the number of lines skipped
   * @param problems the first few skipped lines as {@code file:line: reason}
   */
  public record Result(List<Series> series, int rejected, List<String> problems) {
    /** Copies the lists. */
    public Result {
      series = List.copyOf(series);
      problems = List.copyOf(problems);
    }
  }

  /**
   * Reads one series of {@code timestamp,value} lines (comma or white space between; blank lines,
   * {@code #} comments and a non-numeric header line are skipped). The timestamp is Unix seconds,
   * possibly fractional, or an ISO-8601 instant; an optional third column is the transfer size in
   * bytes. Samples must be in time order.
   *
   * @throws IllegalArgumentException naming the file, line and problem for a malformed line, a NaN,
   *     infinite or negative value, or a timestamp earlier than the one before
   * @throws IOException if the file cannot be read
   */
  public static Series readCsv(Path file) throws IOException {
    String name = file.getFileName().toString();
    Series.Builder b = Series.builder(name);
    try (BufferedReader r = open(file)) {
      String line;
      int no = 0;
      boolean first = true;
      while ((line = readLine(r, file, ++no)) != null) {
        String s = line.strip();
        if (s.isEmpty() || s.startsWith("#")) {
          continue;
        }
        String[] f = s.split("\\s*[,;\\s]\\s*");
        if (first && f.length >= 2 && !looksNumeric(f[1])) {
          first = false; // a header
          continue;
        }
        first = false;
        if (f.length < 2 || f.length > 3) {
          throw bad(file, no, "expected 'timestamp,value[,size]', got " + f.length + " fields");
        }
        Instant t = parseTime(file, no, f[0]);
        double v;
        try {
          v = Double.parseDouble(f[1]);
        } catch (NumberFormatException e) {
          throw bad(file, no, "value is not a number: '" + f[1] + "'");
        }
        long size = Sample.UNKNOWN_SIZE;
        if (f.length == 3) {
          try {
            size = Long.parseLong(f[2]);
          } catch (NumberFormatException e) {
            throw bad(file, no, "size is not a whole number of bytes: '" + f[2] + "'");
          }
        }
        try {
          b.add(t, v, size);
        } catch (IllegalArgumentException e) {
          throw bad(file, no, e.getMessage());
        }
      }
    }
    return b.build();
  }

  /**
   * Reads SLAC HPSS transfer records (columns {@code start}, {@code fsz}, {@code elap}, {@code
   * ttype}, {@code fsid} by header name) into one bandwidth series per (fsid, ttype), named {@code
   * fsid=F,ttype=T}, each sorted by start time. Bandwidth = fsz / (elap / 1000) bytes per second.
   * Rows with a zero or negative size or duration, or fields that do not parse, are skipped and
   * counted.
   *
   * @throws IllegalArgumentException if the header lacks a required column
   * @throws IOException if the file cannot be read
   */
  public static Result readSlac(Path file) throws IOException {
    Map<String, List<Sample>> bySeries = new TreeMap<>(Comparator.naturalOrder());
    int rejected = 0;
    List<String> problems = new ArrayList<>();
    try (BufferedReader r = open(file)) {
      String header = readLine(r, file, 1);
      if (header == null) {
        return new Result(List.of(), 0, List.of());
      }
      Map<String, Integer> col = new HashMap<>();
      String[] h = header.strip().split(",");
      for (int i = 0; i < h.length; i++) {
        col.put(h[i].strip(), i);
      }
      for (String need : List.of("start", "fsz", "elap", "ttype", "fsid")) {
        if (!col.containsKey(need)) {
          throw bad(file, 1, "SLAC header lacks column '" + need + "': " + header);
        }
      }
      int cStart = col.get("start");
      int cSize = col.get("fsz");
      int cElap = col.get("elap");
      int cType = col.get("ttype");
      int cFs = col.get("fsid");
      int width = h.length;
      String line;
      int no = 1;
      while ((line = readLine(r, file, ++no)) != null) {
        if (line.isBlank()) {
          continue;
        }
        String[] f = line.strip().split(",", -1);
        String reason = null;
        Sample sample = null;
        String key = null;
        if (f.length != width) {
          reason = "expected " + width + " fields, got " + f.length;
        } else {
          try {
            long start = Long.parseLong(f[cStart].strip());
            long size = Long.parseLong(f[cSize].strip());
            double elapMs = Double.parseDouble(f[cElap].strip());
            if (size <= 0) {
              reason = "size is not positive: " + size;
            } else if (!(elapMs > 0) || Double.isInfinite(elapMs)) {
              reason = "elapsed time is not positive: " + f[cElap];
            } else {
              sample = new Sample(Instant.ofEpochSecond(start), size / (elapMs / 1000), size);
              key = "fsid=" + f[cFs].strip() + ",ttype=" + f[cType].strip();
            }
          } catch (NumberFormatException e) {
            reason = "a field is not a number: " + e.getMessage();
          }
        }
        if (reason != null) {
          rejected++;
          if (problems.size() < 10) {
            problems.add(file + ":" + no + ": " + reason);
          }
          continue;
        }
        bySeries.computeIfAbsent(key, k -> new ArrayList<>()).add(sample);
      }
    }
    List<Series> out = new ArrayList<>();
    for (Map.Entry<String, List<Sample>> e : bySeries.entrySet()) {
      List<Sample> samples = e.getValue();
      samples.sort(Comparator.comparing(Sample::time)); // stable: ties keep file order
      out.add(Series.of(e.getKey(), samples));
    }
    return new Result(out, rejected, problems);
  }

  static BufferedReader open(Path file) throws IOException {
    InputStream in = Files.newInputStream(file);
    PushbackInputStream pin = new PushbackInputStream(in, 2);
    byte[] magic = new byte[2];
    int got = pin.readNBytes(magic, 0, 2);
    if (got > 0) {
      pin.unread(magic, 0, got);
    }
    InputStream body =
        got == 2 && (magic[0] & 0xff) == 0x1f && (magic[1] & 0xff) == 0x8b
            ? new GZIPInputStream(pin, 1 << 16)
            : pin;
    return new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8), 1 << 16);
  }

  private static String readLine(BufferedReader r, Path file, int no) throws IOException {
    String line = r.readLine();
    if (line != null && line.length() > MAX_LINE) {
      throw bad(file, no, "line longer than " + MAX_LINE + " characters");
    }
    return line;
  }

  private static boolean looksNumeric(String s) {
    try {
      Double.parseDouble(s);
      return true;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  private static Instant parseTime(Path file, int no, String s) {
    try {
      double secs = Double.parseDouble(s);
      if (!Double.isFinite(secs) || Math.abs(secs) > 1e13) {
        throw bad(file, no, "timestamp out of range: '" + s + "'");
      }
      return Instant.ofEpochMilli(Math.round(secs * 1000));
    } catch (NumberFormatException e) {
      try {
        return Instant.parse(s);
      } catch (DateTimeParseException e2) {
        throw bad(file, no, "timestamp is neither Unix seconds nor ISO-8601: '" + s + "'");
      }
    }
  }

  private static IllegalArgumentException bad(Path file, int line, String reason) {
    return new IllegalArgumentException(file + ":" + line + ": " + reason);
  }
}
