package org.braid.coalloc;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** A set of disjoint half-open byte ranges, merged when adjacent. Not thread-safe. */
final class RangeSet {
  private final TreeMap<Long, Long> ranges = new TreeMap<>();
  private long total;

  /** Adds [start, end); overlapping an existing range is a bug. */
  void add(long start, long end) {
    if (end <= start) {
      return;
    }
    Map.Entry<Long, Long> lo = ranges.floorEntry(start);
    if (lo != null && lo.getValue() > start) {
      throw new IllegalStateException("range " + start + "-" + end + " overlaps " + lo);
    }
    Map.Entry<Long, Long> hi = ranges.ceilingEntry(start);
    if (hi != null && hi.getKey() < end) {
      throw new IllegalStateException("range " + start + "-" + end + " overlaps " + hi);
    }
    long s = start;
    long e = end;
    if (lo != null && lo.getValue() == start) {
      s = lo.getKey();
      ranges.remove(lo.getKey());
    }
    if (hi != null && hi.getKey() == end) {
      e = hi.getValue();
      ranges.remove(hi.getKey());
    }
    ranges.put(s, e);
    total += end - start;
  }

  /** Removes [start, end), which may cover parts of several ranges. */
  void remove(long start, long end) {
    for (ByteRange r : list()) {
      long s = Math.max(r.start(), start);
      long e = Math.min(r.end(), end);
      if (s >= e) {
        continue;
      }
      ranges.remove(r.start());
      total -= r.length();
      if (r.start() < s) {
        ranges.put(r.start(), s);
        total += s - r.start();
      }
      if (e < r.end()) {
        ranges.put(e, r.end());
        total += r.end() - e;
      }
    }
  }

  /** Takes up to {@code max} bytes from the start of the first range; null when empty. */
  ByteRange takeFirst(long max) {
    Map.Entry<Long, Long> first = ranges.firstEntry();
    if (first == null) {
      return null;
    }
    long s = first.getKey();
    long e = first.getValue() - s <= Math.max(1, max) ? first.getValue() : s + Math.max(1, max);
    remove(s, e);
    return new ByteRange(s, e);
  }

  /** Start of the first range; -1 when empty. */
  long firstStart() {
    Map.Entry<Long, Long> first = ranges.firstEntry();
    return first == null ? -1 : first.getKey();
  }

  /** Length of the first range, 0 when empty. */
  long firstLength() {
    Map.Entry<Long, Long> first = ranges.firstEntry();
    return first == null ? 0 : first.getValue() - first.getKey();
  }

  boolean contains(long start, long end) {
    Map.Entry<Long, Long> lo = ranges.floorEntry(start);
    return lo != null && lo.getValue() >= end;
  }

  long total() {
    return total;
  }

  boolean isEmpty() {
    return ranges.isEmpty();
  }

  List<ByteRange> list() {
    List<ByteRange> out = new ArrayList<>(ranges.size());
    for (Map.Entry<Long, Long> e : ranges.entrySet()) {
      out.add(new ByteRange(e.getKey(), e.getValue()));
    }
    return out;
  }

  RangeSet copy() {
    RangeSet c = new RangeSet();
    c.ranges.putAll(ranges);
    c.total = total;
    return c;
  }
}
