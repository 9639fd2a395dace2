package org.braid.coalloc;

import java.util.HashSet;
import java.util.Set;

/**
 * The names of a dataset's files claimed so far, checked one file at a time as a {@link
 * DatasetFeed} delivers them: a file whose path cannot be written beside an earlier one's fails,
 * and the earlier keeps its name (the incremental form of {@link DatasetOutput#conflicts}, for
 * files that arrive while the first ones are already fetched). Not thread-safe.
 */
final class DatasetClaims {
  private final Set<String> names = new HashSet<>();
  private final Set<String> dirs = new HashSet<>();

  /**
   * Why {@code path} cannot be written beside the files claimed before it, or null: then it is
   * claimed.
   */
  String claim(String path) {
    String why = conflict(path);
    if (why == null) {
      names.add(path);
      for (int k = path.indexOf('/'); k >= 0; k = path.indexOf('/', k + 1)) {
        dirs.add(path.substring(0, k));
      }
    }
    return why;
  }

  private String conflict(String p) {
    if (names.contains(p)) {
      return "listed twice";
    }
    String alone = DatasetOutput.unwritable(p);
    if (alone != null) {
      return alone;
    }
    if (dirs.contains(p)) {
      return "also a directory of other files of the dataset";
    }
    for (int k = p.indexOf('/'); k >= 0; k = p.indexOf('/', k + 1)) {
      String d = p.substring(0, k);
      if (names.contains(d)) {
        return "its directory " + DatasetNames.shown(d) + " is another file of the dataset";
      }
    }
    for (String suffix : DatasetOutput.TEMPORARY) {
      if (p.endsWith(suffix) && names.contains(p.substring(0, p.length() - suffix.length()))) {
        return "collides with the temporary file of "
            + DatasetNames.shown(p.substring(0, p.length() - suffix.length()));
      }
      if (names.contains(p + suffix)) {
        return "its temporary file would be "
            + DatasetNames.shown(p + suffix)
            + ", another file of the dataset";
      }
    }
    return null;
  }
}
