package org.braid.coalloc;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.Adler32;

/**
 * Whole-file digests fed in order as the bytes stream past (names as in {@link Checksum}). Not
 * thread-safe.
 */
final class StreamDigests {
  private final List<MessageDigest> mds = new ArrayList<>();
  private final List<String> names = new ArrayList<>();
  private final Adler32 adler;

  /** Digests of these algorithms ({@code sha-256}, {@code md5}, {@code adler32}, ...). */
  StreamDigests(List<String> algorithms) {
    Adler32 a = null;
    for (String name : algorithms) {
      if (name.equals("adler32")) {
        a = new Adler32();
      } else {
        try {
          mds.add(MessageDigest.getInstance(name.toUpperCase(Locale.ROOT)));
          names.add(name);
        } catch (NoSuchAlgorithmException e) {
          throw new IllegalStateException(name, e);
        }
      }
    }
    this.adler = a;
  }

  /** SHA-256 and the algorithm of every checksum, each once. */
  static List<String> algorithms(List<Checksum> checksums) {
    List<String> algos = new ArrayList<>();
    algos.add("sha-256");
    for (Checksum c : checksums) {
      if (!algos.contains(c.algorithm())) {
        algos.add(c.algorithm());
      }
    }
    return algos;
  }

  /** Feeds the buffer's remaining bytes, leaving its position unchanged. */
  void update(ByteBuffer b) {
    for (MessageDigest md : mds) {
      md.update(b.duplicate());
    }
    if (adler != null) {
      adler.update(b.duplicate());
    }
  }

  /** The hex digests by algorithm. */
  Map<String, String> finish() {
    Map<String, String> out = new LinkedHashMap<>();
    for (int i = 0; i < mds.size(); i++) {
      out.put(names.get(i), HexFormat.of().formatHex(mds.get(i).digest()));
    }
    if (adler != null) {
      out.put("adler32", String.format("%08x", adler.getValue()));
    }
    return out;
  }

  /** The first checksum the digests do not match, or null when all match. */
  static Checksum mismatch(Map<String, String> digests, List<Checksum> expected) {
    for (Checksum c : expected) {
      if (!c.hex().equals(digests.get(c.algorithm()))) {
        return c;
      }
    }
    return null;
  }
}
