package org.braid.coalloc;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * The files of a job, by index, which a {@link DatasetFeed} may still append to while the job runs.
 * Appended by one thread; read by any (a file, once added, never changes or moves).
 */
final class DatasetFileList extends AbstractList<DatasetFile> implements RandomAccess {
  private volatile DatasetFile[] items;
  private volatile int size;

  private DatasetFileList(DatasetFile[] items, int size) {
    this.items = items;
    this.size = size;
  }

  /** A list holding a copy of {@code files}. */
  static DatasetFileList of(List<DatasetFile> files) {
    DatasetFile[] a = files.toArray(new DatasetFile[0]);
    for (DatasetFile f : a) {
      Objects.requireNonNull(f, "file");
    }
    return new DatasetFileList(a, a.length);
  }

  @Override
  public DatasetFile get(int i) {
    int n = size; // read before the array: every item below it is in the array read after
    Objects.checkIndex(i, n);
    return items[i];
  }

  @Override
  public int size() {
    return size;
  }

  /** Appends a file; returns its index. */
  synchronized int append(DatasetFile f) {
    Objects.requireNonNull(f, "file");
    int n = size;
    DatasetFile[] a = items;
    if (n == a.length) {
      a = Arrays.copyOf(a, Math.max(16, n * 2));
    }
    a[n] = f;
    items = a;
    size = n + 1;
    return n;
  }
}
