package org.braid.coalloc;

import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which version of the file the download takes, from the checksums the replicas publish: replicas
 * of the same size that publish a different checksum of the same algorithm hold another version of
 * the file and are dropped before any byte is fetched, so that no file mixes two versions. The
 * checksums given by the user win; for each other algorithm (strongest first) the value most
 * replicas publish wins, on a tie the one of the earliest replica. Pure.
 */
final class SourceChecksums {
  /** The algorithms by strength: the stronger decides first. */
  static final List<String> ORDER = List.of("sha-512", "sha-256", "sha-1", "md5", "adler32");

  private SourceChecksums() {}

  /**
   * The outcome.
   *
   * @param published the agreed checksums of algorithms the user gave none of, to verify the file
   *     against
   * @param dropped the replicas that hold another version, with the reason
   */
  record Agreement(List<Checksum> published, Map<URI, String> dropped) {}

  /**
   * Decides the version.
   *
   * @param expected the user's checksums (they win)
   * @param probed the answers of the replicas still usable, in source order
   */
  static Agreement agree(List<Checksum> expected, Map<URI, Validators> probed) {
    Map<String, String> reference = new HashMap<>();
    Map<String, String> origin = new HashMap<>();
    for (Checksum c : expected) {
      reference.put(c.algorithm(), c.hex());
      origin.put(c.algorithm(), "expected");
    }
    Map<URI, Validators> alive = new LinkedHashMap<>(probed);
    Map<URI, String> dropped = new LinkedHashMap<>();
    dropDisagreeing(alive, reference, origin, dropped);
    List<Checksum> published = new ArrayList<>();
    for (String algo : ORDER) {
      if (reference.containsKey(algo)) {
        continue;
      }
      String value = majority(alive, algo);
      if (value != null) {
        reference.put(algo, value);
        origin.put(algo, "the other replicas publish");
        published.add(new Checksum(algo, value));
        dropDisagreeing(alive, reference, origin, dropped);
      }
    }
    return new Agreement(published, dropped);
  }

  private static void dropDisagreeing(
      Map<URI, Validators> alive,
      Map<String, String> reference,
      Map<String, String> origin,
      Map<URI, String> dropped) {
    for (var it = alive.entrySet().iterator(); it.hasNext(); ) {
      var e = it.next();
      for (Checksum c : e.getValue().checksums()) {
        String want = reference.get(c.algorithm());
        if (want != null && !want.equals(c.hex())) {
          dropped.put(
              e.getKey(),
              e.getKey()
                  + ": another version of the file: publishes "
                  + c.algorithm()
                  + " "
                  + c.hex()
                  + ", "
                  + origin.get(c.algorithm())
                  + " "
                  + want);
          it.remove();
          break;
        }
      }
    }
  }

  /** The value of the algorithm most replicas publish; on a tie the earliest's; null if none. */
  private static String majority(Map<URI, Validators> alive, String algo) {
    Map<String, Integer> count = new HashMap<>();
    List<String> inOrder = new ArrayList<>();
    for (Validators v : alive.values()) {
      Checksum c = v.checksum(algo);
      if (c != null) {
        count.merge(c.hex(), 1, Integer::sum);
        inOrder.add(c.hex());
      }
    }
    String best = null;
    for (String h : inOrder) {
      if (best == null || count.get(h) > count.get(best)) {
        best = h;
      }
    }
    return best;
  }
}
