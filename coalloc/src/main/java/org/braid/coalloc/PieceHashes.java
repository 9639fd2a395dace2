package org.braid.coalloc;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Expected digests of consecutive pieces of the file, as listed by a Metalink {@code <pieces>}
 * element (RFC 5854): piece {@code i} covers bytes {@code [i*length, min((i+1)*length, size))}.
 * Each piece is checked as soon as all its bytes are written; a piece that does not match is
 * fetched again and the replicas that wrote it are penalised.
 *
 * @param algorithm {@code sha-256}, {@code sha-1}, {@code sha-512}, {@code md5} or {@code adler32}
 *     (spellings as accepted by {@link Checksum#normalise})
 * @param length piece length in bytes, positive
 * @param hex one lower-case hexadecimal digest per piece, in file order
 */
public record PieceHashes(String algorithm, long length, List<String> hex) {
  private static final Pattern HEX = Pattern.compile("[0-9a-f]+");

  /**
   * Normalises and checks the values.
   *
   * @throws IllegalArgumentException for an unknown algorithm, a non-positive length, or a
   *     malformed digest
   */
  public PieceHashes {
    algorithm = normalise(Objects.requireNonNull(algorithm, "algorithm"));
    if (length <= 0) {
      throw new IllegalArgumentException("piece length must be positive: " + length);
    }
    int want = Checksum.hexLength(algorithm);
    List<String> h = new ArrayList<>();
    for (String s : Objects.requireNonNull(hex, "hex")) {
      String v = Objects.requireNonNull(s, "piece digest").trim().toLowerCase(Locale.ROOT);
      if (v.length() != want || !HEX.matcher(v).matches()) {
        throw new IllegalArgumentException(
            algorithm
                + " piece "
                + h.size()
                + " digest must be "
                + want
                + " hexadecimal digits: '"
                + v
                + "'");
      }
      h.add(v);
    }
    hex = List.copyOf(h);
  }

  /** The number of pieces a file of {@code size} bytes has with this piece length. */
  public long piecesFor(long size) {
    return size == 0 ? 0 : (size - 1) / length + 1;
  }

  /** The byte range of piece {@code i} of a file of {@code size} bytes. */
  ByteRange range(int i, long size) {
    long s = i * length;
    return new ByteRange(s, Math.min(size, s + length));
  }

  /**
   * Checks that there is one digest per piece of a file of the given size.
   *
   * @throws IllegalArgumentException if the count differs
   */
  public void checkSize(long size) {
    long want = piecesFor(size);
    if (want != hex.size()) {
      throw new IllegalArgumentException(
          "piece hashes: "
              + hex.size()
              + " digests given, but a "
              + size
              + "-byte file has "
              + want
              + " pieces of "
              + length
              + " bytes");
    }
  }

  private static String normalise(String algorithm) {
    try {
      return Checksum.normalise(algorithm);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "unknown piece hash algorithm '"
              + algorithm
              + "' (use sha-256, sha-1, sha-512, md5 or adler32)");
    }
  }
}
