package org.braid.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import org.braid.broker.catalog.CatalogFile;
import org.braid.coalloc.Checksum;
import org.braid.coalloc.PieceHashes;

/**
 * The checks a catalog or Metalink declares for {@code braid get}, failing closed: a hash of the
 * wrong length, piece hashes of an unknown type, or only hashes of unknown algorithms are errors
 * before anything is fetched; an unknown algorithm beside a known one is skipped with a warning.
 * Stateless.
 */
final class CatalogChecks {
  private CatalogChecks() {}

  /**
   * Adds the file's whole-file hashes to {@code sums} and returns its piece hashes (or null).
   *
   * @param where the file and entry, for messages ("FILE: file NAME: ")
   * @param err where a skipped hash is reported
   * @throws IllegalArgumentException naming the problem, for a hash that cannot be checked
   */
  static PieceHashes checks(CatalogFile file, String where, List<Checksum> sums, PrintWriter err) {
    List<String> unknown = new ArrayList<>();
    int before = sums.size();
    for (var h : file.hashes().entrySet()) {
      String algo;
      try {
        algo = Checksum.normalise(h.getKey());
      } catch (IllegalArgumentException e) {
        unknown.add(h.getKey());
        continue;
      }
      try {
        sums.add(new Checksum(algo, h.getValue()));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(where + e.getMessage() + "; not downloading", e);
      }
    }
    if (!unknown.isEmpty()) {
      if (sums.size() == before) {
        throw new IllegalArgumentException(
            where
                + "cannot verify: braid does not know the hash algorithm "
                + String.join(", ", unknown)
                + " (it knows sha-256, sha-512, sha-1, md5, adler32); give --checksum");
      }
      err.println(
          "braid: warning: not checking the catalog's "
              + String.join(", ", unknown)
              + " hash (unknown algorithm); checking "
              + sums.get(before).algorithm());
    }
    var p = file.pieces();
    if (p == null) {
      return null;
    }
    try {
      return new PieceHashes(p.type(), p.length(), p.hashes());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + "piece hashes: " + e.getMessage(), e);
    }
  }
}
