package org.braid.coalloc;

import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Puts the listings of one directory tree on several replicas together into a dataset: files are
 * matched by relative path, and each file's sources are the replicas that hold it (in replica
 * order), so a file missing from a replica simply has fewer sources. A replica that lists a file
 * with another size than most replicas do is not used for that file (noted). Stateless.
 */
public final class DatasetListing {

  private DatasetListing() {}

  /**
   * The merged dataset.
   *
   * @param files every file found on at least one replica, in the order first found
   * @param notes what was left out and why: entries a listing refused, sizes that disagree
   */
  public record Merged(List<DatasetFile> files, List<String> notes) {
    /** Copies the lists. */
    public Merged {
      files = List.copyOf(files);
      notes = List.copyOf(notes);
    }
  }

  /**
   * Merges listings of the same tree, one per replica, the preferred replica first.
   *
   * @throws IllegalArgumentException if no listing is given or two have the same root
   */
  public static Merged merge(List<Listing> listings) {
    if (listings.isEmpty()) {
      throw new IllegalArgumentException("no listing to merge");
    }
    int n = listings.size();
    if (listings.stream().map(Listing::root).distinct().count() != n) {
      throw new IllegalArgumentException("a directory is listed twice");
    }
    Map<String, long[]> sizes = new LinkedHashMap<>();
    List<String> notes = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Listing l = listings.get(i);
      for (String r : l.refused()) {
        notes.add(l.root() + ": " + r);
      }
      for (ListedFile f : l.files()) {
        long[] s =
            sizes.computeIfAbsent(
                f.path(),
                k -> {
                  long[] a = new long[n];
                  Arrays.fill(a, Long.MIN_VALUE);
                  return a;
                });
        s[i] = f.size();
      }
    }
    List<DatasetFile> files = new ArrayList<>(sizes.size());
    for (Map.Entry<String, long[]> e : sizes.entrySet()) {
      files.add(file(e.getKey(), e.getValue(), listings, notes));
    }
    return new Merged(files, notes);
  }

  private static DatasetFile file(String path, long[] sizes, List<Listing> ls, List<String> notes) {
    long size = majority(sizes);
    List<URI> sources = new ArrayList<>();
    for (int i = 0; i < sizes.length; i++) {
      if (sizes[i] == Long.MIN_VALUE) {
        continue; // not on this replica
      }
      URI root = ls.get(i).root();
      if (sizes[i] != size && sizes[i] >= 0 && size >= 0) {
        notes.add(
            root
                + ": "
                + DatasetNames.shown(path)
                + " has "
                + sizes[i]
                + " bytes, the other replicas "
                + size
                + "; not used for this file");
        continue;
      }
      sources.add(DatasetNames.resolve(root, path));
    }
    return DatasetFile.of(path, size, sources);
  }

  /** The known size most replicas report (the earliest on a tie), or -1 when none is known. */
  private static long majority(long[] sizes) {
    Map<Long, Integer> count = new HashMap<>();
    for (long s : sizes) {
      if (s >= 0) {
        count.merge(s, 1, Integer::sum);
      }
    }
    long best = -1;
    int bestCount = 0;
    for (long s : sizes) {
      if (s >= 0 && count.get(s) > bestCount) {
        best = s;
        bestCount = count.get(s);
      }
    }
    return best;
  }
}
