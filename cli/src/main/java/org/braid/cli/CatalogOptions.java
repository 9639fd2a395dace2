package org.braid.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The options that name a file through a catalog instead of URLs, shared by {@code braid get} and
 * {@code braid rank} as a picocli mixin.
 */
final class CatalogOptions {

  @Option(
      names = "--metalink",
      paramLabel = "FILE",
      description =
          "A Metalink 4 file (RFC 5854): its only file, or the one named by --name."
              + " braid get verifies its hashes and checks its piece hashes as pieces complete.")
  Path metalink;

  @Option(
      names = "--catalog",
      arity = "2",
      paramLabel = "FILE NAME",
      hideParamSyntax = true,
      description = "A JSON or YAML catalog, and the logical file NAME in it.")
  List<String> catalog;

  @Option(
      names = "--name",
      paramLabel = "NAME",
      description =
          "The file of a Metalink holding several; with -d, repeatable: files, datasets or globs"
              + " ('run/**.h5') of the Metalink or catalog to fetch (default: all).")
  List<String> names = new ArrayList<>();

  /**
   * Checks that exactly one of replica URLs, {@code --metalink} and {@code --catalog} was given.
   *
   * @return whether the file comes from a catalog
   * @throws IllegalArgumentException otherwise
   */
  boolean fromCatalog(List<String> urls) {
    int given = (urls.isEmpty() ? 0 : 1) + (metalink == null ? 0 : 1) + (catalog == null ? 0 : 1);
    if (given != 1) {
      throw new IllegalArgumentException(
          "give replica URLs, --metalink FILE or --catalog FILE NAME (exactly one)");
    }
    return urls.isEmpty();
  }

  /** Reads the named file; see {@link CatalogInput#read}. */
  CatalogInput read() {
    if (names.size() > 1) {
      throw new IllegalArgumentException("--name names one file here (several need -d DIR)");
    }
    return CatalogInput.read(metalink, names.isEmpty() ? null : names.get(0), catalog);
  }
}
