package org.braid.broker.catalog;

import java.net.URI;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A replica catalog: logical file names and their replicas, the information providers the catalog
 * names per host, and named datasets (groups of its files).
 *
 * @param files the files by name, in catalog order
 * @param providers provider URLs ({@code /v1/ads}) by host or {@code host:port}
 * @param datasets dataset names and, for each, the file names or glob patterns it holds
 */
public record ReplicaCatalog(
    Map<String, CatalogFile> files,
    Map<String, URI> providers,
    Map<String, List<String>> datasets) {

  /** Copies the maps, keeping their order. */
  public ReplicaCatalog {
    files =
        Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(files, "files")));
    providers = Map.copyOf(Objects.requireNonNull(providers, "providers"));
    Map<String, List<String>> d = new LinkedHashMap<>();
    Objects.requireNonNull(datasets, "datasets").forEach((k, v) -> d.put(k, List.copyOf(v)));
    datasets = Collections.unmodifiableMap(d);
  }

  /** A catalog without named datasets. */
  public ReplicaCatalog(Map<String, CatalogFile> files, Map<String, URI> providers) {
    this(files, providers, Map.of());
  }

  /**
   * The files that the selectors name, in catalog order, each once. A selector is a file name, a
   * dataset name of {@link #datasets()} (all its files), or a glob pattern over file names ({@code
   * *} and {@code ?} within one path segment, {@code **} across segments, {@code [a-z]}, {@code
   * {a,b}}). No selector selects every file.
   *
   * @throws IllegalArgumentException if a selector selects nothing (naming it and a few names the
   *     catalog has) or is not a valid pattern
   */
  public List<CatalogFile> select(List<String> selectors) {
    if (selectors.isEmpty()) {
      return List.copyOf(files.values());
    }
    Set<String> chosen = new LinkedHashSet<>();
    for (String s : selectors) {
      Set<String> got = new LinkedHashSet<>();
      if (files.containsKey(s)) {
        got.add(s);
      } else if (datasets.containsKey(s)) {
        for (String p : datasets.get(s)) {
          got.addAll(matching(p));
        }
      } else {
        got.addAll(matching(s));
      }
      if (got.isEmpty()) {
        throw new IllegalArgumentException(
            "no file or dataset of the catalog matches " + s + has());
      }
      chosen.addAll(got);
    }
    List<CatalogFile> out = new ArrayList<>();
    for (Map.Entry<String, CatalogFile> e : files.entrySet()) {
      if (chosen.contains(e.getKey())) {
        out.add(e.getValue());
      }
    }
    return out;
  }

  private List<String> matching(String pattern) {
    if (files.containsKey(pattern)) {
      return List.of(pattern);
    }
    PathMatcher m;
    try {
      m = FileSystems.getDefault().getPathMatcher("glob:" + pattern);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("invalid pattern " + pattern + ": " + e.getMessage(), e);
    }
    List<String> out = new ArrayList<>();
    for (String name : files.keySet()) {
      if (m.matches(Path.of(name))) {
        out.add(name);
      }
    }
    return out;
  }

  private String has() {
    if (files.isEmpty()) {
      return " (it is empty)";
    }
    String some = String.join(", ", files.keySet().stream().limit(5).toList());
    String ds =
        datasets.isEmpty()
            ? ""
            : "; datasets: " + String.join(", ", datasets.keySet().stream().limit(5).toList());
    return " (it has: " + some + (files.size() > 5 ? ", ..." : "") + ds + ")";
  }

  /**
   * The file of that name.
   *
   * @throws IllegalArgumentException if the catalog has no such file (the message lists a few names
   *     it has)
   */
  public CatalogFile file(String name) {
    Objects.requireNonNull(name, "name");
    CatalogFile f = files.get(name);
    if (f == null) {
      String some = String.join(", ", files.keySet().stream().limit(5).toList());
      throw new IllegalArgumentException(
          "catalog has no file named "
              + name
              + (files.isEmpty()
                  ? " (it is empty)"
                  : " (it has: " + some + (files.size() > 5 ? ", ..." : "") + ")"));
    }
    return f;
  }

  /**
   * The only file of a catalog that holds exactly one (a typical Metalink).
   *
   * @throws IllegalArgumentException if the catalog holds no file or several
   */
  public CatalogFile single() {
    if (files.size() != 1) {
      throw new IllegalArgumentException("catalog holds " + files.size() + " files; name one");
    }
    return files.values().iterator().next();
  }
}
