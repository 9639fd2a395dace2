package org.braid.coalloc;

import java.io.IOException;

/**
 * The files of a dataset that are still being read when the job starts (e.g. the rest of a long
 * input list): the job asks for them one at a time on its own thread while its first files are
 * already fetched ({@link Dataset.Builder#moreFiles}).
 */
@FunctionalInterface
public interface DatasetFeed {
  /**
   * The next file, or null after the last; may block while it is read.
   *
   * @throws IOException if it cannot be read
   * @throws IllegalArgumentException if the input is bad (the message names where): the job stops,
   *     keeping the files verified so far, and {@link Dataset#run} throws it
   */
  DatasetFile next() throws IOException;
}
