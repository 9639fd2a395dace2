package org.braid.coalloc;

import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks the pieces of a download against their {@link PieceHashes} by reading them back from the
 * part file: those just written, and on resume those an earlier run left. Without piece hashes it
 * checks nothing. Called from one thread at a time.
 */
final class PieceVerifier {
  // logs under the download's name, as it always did (docs/download.md names it)
  private static final Logger LOG = LoggerFactory.getLogger(Engine.class);

  private final String id;
  private final PieceHashes pieces;

  /** A verifier for the download with the given log id; {@code pieces} may be null. */
  PieceVerifier(String id, PieceHashes pieces) {
    this.id = id;
    this.pieces = pieces;
  }

  /** Hashes every piece whose bytes are all written; bad ones go back to the pool. */
  void verify(BlockScheduler s, PartFile part) throws IOException {
    if (pieces == null) {
      return;
    }
    for (int i : s.piecesToVerify()) {
      ByteRange r = pieces.range(i, s.size());
      String got = part.digest(pieces.algorithm(), r.start(), r.end());
      String want = pieces.hex().get(i);
      if (got.equals(want)) {
        s.pieceVerified(i);
      } else {
        String why =
            "piece "
                + i
                + " (bytes "
                + r.start()
                + "-"
                + r.end()
                + ") "
                + pieces.algorithm()
                + " mismatch: expected "
                + want
                + ", got "
                + got;
        LOG.warn("[{}] {}; fetching it again", id, why);
        s.pieceBad(i, why);
      }
    }
  }

  /**
   * The ranges of a resumed download to keep: all of them without piece hashes, else only the whole
   * pieces that match their digests again (bytes of pieces that were never checked, or no longer
   * match, are fetched anew).
   */
  RangeSet kept(PartFile part, long size) throws IOException {
    RangeSet resumed = part.resumed();
    if (pieces == null) {
      return resumed;
    }
    RangeSet kept = new RangeSet();
    for (int i = 0; i < pieces.hex().size(); i++) {
      ByteRange r = pieces.range(i, size);
      if (resumed.contains(r.start(), r.end())) {
        if (part.digest(pieces.algorithm(), r.start(), r.end()).equals(pieces.hex().get(i))) {
          kept.add(r.start(), r.end());
        } else {
          LOG.warn(
              "[{}] resumed piece {} (bytes {}-{}) does not match, fetching it again",
              id,
              i,
              r.start(),
              r.end());
        }
      }
    }
    return kept;
  }
}
