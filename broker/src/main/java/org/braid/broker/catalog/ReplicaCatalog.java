package org.braid.broker.catalog;

import java.net.URI;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A replica catalog: logical file names and their replicas, and the information providers the
 * catalog names per host.
 *
 * @param files the files by name, in catalog order
 * @param providers provider URLs ({@code /v1/ads}) by host or {@code host:port}
 */
public record ReplicaCatalog(Map<String, CatalogFile> files, Map<String, URI> providers) {

  /** Copies the maps, keeping their order. */
  public ReplicaCatalog {
    files =
        Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(files, "files")));
    providers = Map.copyOf(Objects.requireNonNull(providers, "providers"));
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
