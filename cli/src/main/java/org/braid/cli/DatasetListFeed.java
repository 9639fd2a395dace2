package org.braid.cli;

import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.braid.broker.catalog.CatalogEntries;
import org.braid.broker.catalog.CatalogException;
import org.braid.broker.catalog.CatalogFile;
import org.braid.broker.catalog.CatalogLimits;
import org.braid.broker.catalog.Catalogs;
import org.braid.coalloc.Checksum;
import org.braid.coalloc.DatasetFeed;
import org.braid.coalloc.DatasetFile;
import org.braid.coalloc.SourceOptions;

/**
 * An {@code -i} input list read while the job runs: the first {@link #HEAD} entries before it
 * starts ({@link #head}), the rest entry by entry on the job's thread ({@link #next}), each checked
 * as {@link DatasetInputs#read} checks a whole list (its line, its name, its replicas' token
 * transport, the digests of {@code --checksums}). A bad entry stops the job with the error the
 * whole list would have given before it started. Read by one thread at a time.
 */
final class DatasetListFeed implements DatasetFeed {
  /** Entries read before the job starts: its concurrency is chosen from their servers. */
  static final int HEAD = 16;

  private final CatalogEntries entries;
  private final SourceOptions options;
  private final Path checksumList;
  private final Map<String, Map<String, String>> sums;
  private final PrintWriter err;
  private final List<CatalogFile> catalog = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();
  private final CompletableFuture<DatasetInputs> whole = new CompletableFuture<>();
  private final List<DatasetFile> all = new ArrayList<>();
  private int shown;

  private DatasetListFeed(
      CatalogEntries entries,
      SourceOptions options,
      Path checksumList,
      Map<String, Map<String, String>> sums,
      PrintWriter err) {
    this.entries = entries;
    this.options = options;
    this.checksumList = checksumList;
    this.sums = sums;
    this.err = err;
  }

  /** Whether the options name an input list and no other input (else {@link DatasetInputs}). */
  static boolean applies(CatalogOptions source, DatasetOptions opts, List<String> urls) {
    return opts.inputList != null
        && urls.isEmpty()
        && source.metalink == null
        && source.catalog == null
        && source.names.isEmpty();
  }

  /**
   * Opens the list (read whole, parsed entry by entry) and {@code --checksums FILE} if given.
   *
   * @throws IllegalArgumentException if either is missing, too large or (the checksum list) bad
   */
  static DatasetListFeed open(DatasetOptions opts, SourceOptions options, PrintWriter err) {
    try {
      Map<String, Map<String, String>> sums =
          opts.checksums == null
              ? Map.of()
              : new LinkedHashMap<>(
                  Catalogs.readChecksumList(opts.checksums, CatalogLimits.DEFAULT));
      return new DatasetListFeed(
          Catalogs.openInputList(opts.inputList, CatalogLimits.DEFAULT),
          options,
          opts.checksums,
          sums,
          err);
    } catch (CatalogException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  /**
   * The first entries (up to {@link #HEAD}), as the dataset's inputs so far; their notes are
   * printed by the caller, those of later entries at the end of the list.
   *
   * @throws IllegalArgumentException for a bad entry among them, or an empty list
   */
  DatasetInputs head() {
    List<DatasetFile> files = new ArrayList<>();
    for (int i = 0; i < HEAD; i++) {
      DatasetFile f = read();
      if (f == null) {
        break;
      }
      files.add(f);
    }
    List<String> n = new ArrayList<>(notes);
    shown = n.size();
    return new DatasetInputs(files, List.copyOf(catalog), Map.of(), n);
  }

  /** The whole list's inputs once it has all been read (for the broker's plan). */
  CompletableFuture<DatasetInputs> whole() {
    return whole;
  }

  @Override
  public DatasetFile next() {
    try {
      return read();
    } catch (RuntimeException e) {
      whole.completeExceptionally(e);
      throw e;
    }
  }

  private DatasetFile read() {
    CatalogFile c;
    try {
      c = entries.next();
    } catch (CatalogException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    if (c == null) {
      end();
      return null;
    }
    DatasetFile f = DatasetInputs.file(c, notes);
    for (URI u : f.sources()) {
      options.checkTokenTransport(u); // before any request to it
    }
    Map<String, String> d = sums.isEmpty() ? null : sums.remove(f.path());
    if (d != null) {
      List<Checksum> cs = new ArrayList<>(f.checksums());
      for (Map.Entry<String, String> e : d.entrySet()) {
        Checksum x = new Checksum(e.getKey(), e.getValue());
        if (!cs.contains(x)) {
          cs.add(x);
        }
      }
      f = f.withChecksums(cs);
    }
    catalog.add(c);
    all.add(f);
    return f;
  }

  /** The list has been read: the notes not shown yet, and the whole inputs for the plan. */
  private void end() {
    if (whole.isDone()) {
      return;
    }
    if (!sums.isEmpty()) {
      notes.add(
          checksumList
              + ": "
              + sums.size()
              + " names are not in the dataset, e.g. "
              + sums.keySet().iterator().next());
    }
    if (notes.size() > shown) {
      synchronized (err) {
        DatasetGet.printNotes(err, notes.subList(shown, notes.size()), shown);
        err.flush();
      }
    }
    whole.complete(new DatasetInputs(List.copyOf(all), List.copyOf(catalog), Map.of(), notes));
  }
}
