package org.braid.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.braid.coalloc.Checksum;
import org.braid.coalloc.PieceHashes;
import org.braid.coalloc.PredictedRate;

/**
 * What {@code braid get --dry-run} shows: where the file would go, from which replicas, with which
 * scheme and checks; and the {@code --json} error object of a failed run.
 *
 * @param output the output file
 * @param scheme the scheme's name
 * @param maxSources the most replicas used
 * @param sources the replicas, best first
 * @param predicted the predicted rates known
 * @param checksums the whole-file checks
 * @param pieces the piece hashes, or null
 * @param size the declared size, or -1
 */
record GetPlan(
    Path output,
    String scheme,
    int maxSources,
    List<URI> sources,
    List<PredictedRate> predicted,
    List<Checksum> checksums,
    PieceHashes pieces,
    long size) {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The plan as text, one item a line. */
  String text() {
    StringBuilder sb = new StringBuilder("dry run: nothing fetched\n");
    sb.append("output    ").append(output.toAbsolutePath()).append(exists()).append('\n');
    sb.append("scheme    ").append(scheme).append('\n');
    sb.append("replicas  ")
        .append(sources.size())
        .append(", at most ")
        .append(maxSources)
        .append(" used, best first\n");
    for (URI u : sources) {
      sb.append("  ").append(u);
      Double r = rate(u);
      if (r != null) {
        sb.append(String.format(Locale.ROOT, "  predicted %.1f Mbit/s", r * 8 / 1e6));
      }
      sb.append('\n');
    }
    for (Checksum c : checksums) {
      sb.append("checksum  ").append(c.algorithm()).append(':').append(c.hex()).append('\n');
    }
    if (pieces != null) {
      sb.append("pieces    ").append(pieces.algorithm()).append(" per piece\n");
    }
    if (size >= 0) {
      sb.append("size      ").append(size).append(" bytes (declared)\n");
    }
    return sb.toString();
  }

  /** The plan as one JSON object. */
  String json() {
    ObjectNode o = JSON.createObjectNode();
    o.put("dryRun", true);
    o.put("output", output.toAbsolutePath().toString());
    o.put("outputExists", Files.exists(output, LinkOption.NOFOLLOW_LINKS));
    o.put("scheme", scheme);
    o.put("maxSources", maxSources);
    ArrayNode a = o.putArray("replicas");
    for (URI u : sources) {
      ObjectNode r = a.addObject().put("url", u.toString());
      Double rate = rate(u);
      if (rate != null) {
        r.put("predictedRate", rate);
      }
    }
    ObjectNode sums = o.putObject("checksums");
    for (Checksum c : checksums) {
      sums.put(c.algorithm(), c.hex());
    }
    if (size >= 0) {
      o.put("size", size);
    }
    return o.toString();
  }

  /** {@code {"error": {"code": 4, "kind": "network", "message": "..."}}}. */
  static String errorJson(int code, String message) {
    ObjectNode o = JSON.createObjectNode();
    o.putObject("error")
        .put("code", code)
        .put("kind", ExitCodes.name(code))
        .put("message", message);
    return o.toString();
  }

  private String exists() {
    return Files.exists(output, LinkOption.NOFOLLOW_LINKS) ? " (exists)" : "";
  }

  private Double rate(URI u) {
    for (PredictedRate p : predicted) {
      if (p.uri().equals(u)) {
        return p.bytesPerSecond();
      }
    }
    return null;
  }
}
