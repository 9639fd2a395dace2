package org.braid.cli;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.braid.broker.catalog.CatalogException;
import org.braid.broker.catalog.CatalogFile;
import org.braid.broker.catalog.CatalogLimits;
import org.braid.broker.catalog.Catalogs;
import org.braid.broker.catalog.Replica;
import org.braid.broker.catalog.ReplicaCatalog;
import org.braid.coalloc.Checksum;
import org.braid.coalloc.DatasetFile;
import org.braid.coalloc.DatasetListing;
import org.braid.coalloc.ListLimits;
import org.braid.coalloc.Lister;
import org.braid.coalloc.Listing;
import org.braid.coalloc.PieceHashes;
import org.braid.coalloc.SourceOptions;

/**
 * The files of a dataset as {@code braid get -d DIR} reads them: from a Metalink (all its files or
 * those {@code --name} selects), a catalog ({@code --catalog FILE NAME}: a file, a dataset or a
 * glob), an aria2-style input list ({@code -i LIST}), or directories listed recursively on every
 * replica ({@code -r URL...}); then checksums from {@code --checksums FILE}.
 *
 * @param files the files, in the input's order
 * @param catalog the catalog entry of each file (same order), for the broker's plan
 * @param providers information providers the catalog declares, per host
 * @param notes what was left out of the listing and why
 */
record DatasetInputs(
    List<DatasetFile> files,
    List<CatalogFile> catalog,
    Map<String, URI> providers,
    List<String> notes) {

  /**
   * Reads the dataset the options name.
   *
   * @throws IllegalArgumentException naming the problem (bad input, nothing selected, a name that
   *     breaks the rules)
   * @throws IOException if a listing fails
   */
  static DatasetInputs read(
      CatalogOptions source, DatasetOptions opts, List<String> urls, SourceOptions so)
      throws IOException {
    int given =
        (urls.isEmpty() ? 0 : 1)
            + (source.metalink == null ? 0 : 1)
            + (source.catalog == null ? 0 : 1)
            + (opts.inputList == null ? 0 : 1);
    if (given != 1) {
      throw new IllegalArgumentException(
          "with -d, give -r and directory URLs, --metalink FILE, --catalog FILE NAME or -i LIST"
              + " (exactly one)");
    }
    DatasetInputs in;
    if (!urls.isEmpty()) {
      if (!opts.recursive) {
        throw new IllegalArgumentException(
            "with -d, URLs name directories: add -r to list them recursively (or use -o FILE"
                + " for one file)");
      }
      in = listed(urls, so, opts.listLimits());
    } else {
      in = fromCatalog(catalog(source, opts), source, opts);
    }
    if (opts.checksums != null) {
      in = in.withChecksums(opts.checksums);
    }
    return in;
  }

  private static ReplicaCatalog catalog(CatalogOptions source, DatasetOptions opts) {
    try {
      if (source.metalink != null) {
        return Catalogs.readMetalink(source.metalink, CatalogLimits.DEFAULT);
      }
      if (opts.inputList != null) {
        return Catalogs.readInputList(opts.inputList, CatalogLimits.DEFAULT);
      }
      if (source.catalog.size() != 2) {
        throw new IllegalArgumentException("--catalog takes one FILE and one NAME, once");
      }
      return Catalogs.read(Path.of(source.catalog.get(0)));
    } catch (CatalogException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  private static DatasetInputs fromCatalog(
      ReplicaCatalog c, CatalogOptions source, DatasetOptions opts) {
    List<String> selectors = new ArrayList<>(source.names);
    if (source.catalog != null) {
      selectors.add(0, source.catalog.get(1));
    }
    return selected(c, selectors);
  }

  /** The files of the catalog the selectors choose (all of them for none). */
  private static DatasetInputs selected(ReplicaCatalog c, List<String> selectors) {
    List<CatalogFile> chosen = c.select(selectors);
    List<DatasetFile> files = new ArrayList<>(chosen.size());
    List<String> notes = new ArrayList<>();
    for (CatalogFile f : chosen) {
      files.add(file(f, notes));
    }
    return new DatasetInputs(files, chosen, c.providers(), notes);
  }

  /** A catalog entry as a dataset file: its name, replicas, whole-file and piece hashes. */
  static DatasetFile file(CatalogFile f, List<String> notes) {
    List<URI> sources = new ArrayList<>();
    for (Replica r : f.replicas()) {
      if (!sources.contains(r.uri())) {
        sources.add(r.uri());
      }
    }
    List<Checksum> sums = new ArrayList<>();
    for (Map.Entry<String, String> h : f.hashes().entrySet()) {
      try {
        sums.add(new Checksum(h.getKey(), h.getValue()));
      } catch (IllegalArgumentException e) {
        notes.add(f.name() + ": not verifying its " + h.getKey() + " hash: " + e.getMessage());
      }
    }
    PieceHashes pieces = null;
    if (f.pieces() != null) {
      try {
        pieces = new PieceHashes(f.pieces().type(), f.pieces().length(), f.pieces().hashes());
      } catch (IllegalArgumentException e) {
        notes.add(f.name() + ": not verifying its piece hashes: " + e.getMessage());
      }
    }
    return new DatasetFile(f.name(), f.size(), sources, sums, pieces);
  }

  private static DatasetInputs listed(List<String> urls, SourceOptions so, ListLimits limits)
      throws IOException {
    List<Listing> ls = new ArrayList<>();
    for (String u : urls) {
      URI dir = Units.url(u);
      try (Lister l = Lister.of(dir, so, limits)) {
        ls.add(l.list());
      }
    }
    DatasetListing.Merged m = DatasetListing.merge(ls);
    if (m.files().isEmpty()) {
      throw new IllegalArgumentException("no file found under " + String.join(", ", urls));
    }
    List<CatalogFile> catalog = new ArrayList<>(m.files().size());
    for (DatasetFile f : m.files()) {
      List<Replica> replicas = new ArrayList<>();
      for (URI u : f.sources()) {
        replicas.add(Replica.of(u));
      }
      catalog.add(new CatalogFile(f.path(), f.size(), Map.of(), null, replicas));
    }
    return new DatasetInputs(m.files(), catalog, Map.of(), m.notes());
  }

  /** The same dataset with the digests of a {@code sha256sum}-style list added by file name. */
  DatasetInputs withChecksums(Path list) {
    Map<String, Map<String, String>> sums;
    try {
      sums = new LinkedHashMap<>(Catalogs.readChecksumList(list, CatalogLimits.DEFAULT));
    } catch (CatalogException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    List<DatasetFile> out = new ArrayList<>(files.size());
    for (DatasetFile f : files) {
      Map<String, String> d = sums.remove(f.path());
      if (d == null) {
        out.add(f);
        continue;
      }
      List<Checksum> cs = new ArrayList<>(f.checksums());
      for (Map.Entry<String, String> e : d.entrySet()) {
        Checksum c = new Checksum(e.getKey(), e.getValue());
        if (!cs.contains(c)) {
          cs.add(c);
        }
      }
      out.add(f.withChecksums(cs));
    }
    List<String> n = new ArrayList<>(notes);
    if (!sums.isEmpty()) {
      n.add(
          list
              + ": "
              + sums.size()
              + " names are not in the dataset, e.g. "
              + sums.keySet().iterator().next());
    }
    return new DatasetInputs(out, catalog, providers, n);
  }
}
