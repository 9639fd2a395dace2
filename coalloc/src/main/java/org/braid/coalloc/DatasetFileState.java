package org.braid.coalloc;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

/** The scheduler's state of one file of a dataset job; guarded by the scheduler's lock. */
final class DatasetFileState {
  static final String FETCHED = "fetched";
  static final String SKIPPED = "skipped";
  static final String FAILED = "failed";

  /** null while pending or running, then {@link #FETCHED}, {@link #SKIPPED} or {@link #FAILED}. */
  String status;

  /** Sources that cannot serve the file (missing, corrupt, wrong size). */
  BitSet excluded;

  /** Sources that failed transiently this round. */
  BitSet failedThisRound;

  List<String> errors;
  int rounds;

  /** Fetch from one source at a time (a co-allocated copy failed its checksum). */
  boolean single;

  /** A partial co-allocated download of an earlier run is there to resume. */
  boolean resumable;

  /** Tasks fetching it now. */
  int active;

  long size = -1;
  double seconds;
  String sha256;
  Map<String, Long> servers = Map.of();
  String error;

  boolean excluded(int source) {
    return (excluded != null && excluded.get(source))
        || (failedThisRound != null && failedThisRound.get(source));
  }

  void exclude(int source, boolean transientFailure) {
    if (transientFailure) {
      if (failedThisRound == null) {
        failedThisRound = new BitSet();
      }
      failedThisRound.set(source);
    } else {
      if (excluded == null) {
        excluded = new BitSet();
      }
      excluded.set(source);
    }
  }

  void error(String e) {
    if (errors == null) {
      errors = new ArrayList<>();
    }
    if (errors.size() < 16) {
      errors.add(e);
    }
  }
}
