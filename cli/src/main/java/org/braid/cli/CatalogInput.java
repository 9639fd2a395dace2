package org.braid.cli;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.braid.broker.catalog.CatalogException;
import org.braid.broker.catalog.CatalogFile;
import org.braid.broker.catalog.CatalogLimits;
import org.braid.broker.catalog.Catalogs;
import org.braid.broker.catalog.ReplicaCatalog;

/**
 * The file a command works on when it comes from a Metalink ({@code --metalink FILE [--name NAME]})
 * or a catalog ({@code --catalog FILE NAME}), with the information providers the catalog names.
 * Shared by {@code braid rank} and {@code braid get}.
 *
 * @param file the file with its replicas, size and hashes
 * @param providers the information provider per host that the catalog declares
 */
record CatalogInput(CatalogFile file, Map<String, URI> providers) {

  /**
   * Reads the one file named by the options.
   *
   * @param metalink the Metalink file, or null
   * @param name the file's name inside a Metalink that holds several, or null
   * @param catalog the catalog file and logical name (two elements), or null
   * @throws IllegalArgumentException naming the problem for unreadable or hostile input
   */
  static CatalogInput read(Path metalink, String name, List<String> catalog) {
    if (catalog != null && catalog.size() != 2) {
      throw new IllegalArgumentException("--catalog takes one FILE and one NAME, once");
    }
    try {
      ReplicaCatalog c =
          metalink != null
              ? Catalogs.readMetalink(metalink, CatalogLimits.DEFAULT)
              : Catalogs.read(Path.of(catalog.get(0)));
      CatalogFile f =
          metalink != null ? (name == null ? c.single() : c.file(name)) : c.file(catalog.get(1));
      return new CatalogInput(f, c.providers());
    } catch (CatalogException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }
}
