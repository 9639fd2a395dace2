package org.braid.provider.probe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.braid.infoprovider.store.Point;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Imports {@code iperf3 -J} results dropped in a folder: each {@code *.json} file becomes one point
 * of {@code network/HOST/iperf_bandwidth} (bytes per second received, {@code
 * end.sum_received.bits_per_second / 8}, or {@code end.sum.bits_per_second / 8} for UDP), at {@code
 * start.timestamp.timesecs}, HOST being {@code start.connected[0].remote_host}. An imported file
 * moves to {@code done/}, one that cannot be read to {@code failed/}, so nothing is imported twice.
 * Not thread-safe (one scheduler thread).
 */
public final class IperfImporter implements Probe {

  private static final Logger LOG = LoggerFactory.getLogger(IperfImporter.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path folder;

  /** Creates the importer for {@code folder}. */
  public IperfImporter(Path folder) {
    this.folder = Objects.requireNonNull(folder, "folder");
  }

  @Override
  public String name() {
    return "iperf3 import " + folder;
  }

  @Override
  public Map<String, Point> measure() throws IOException {
    Map<String, Point> out = new LinkedHashMap<>();
    if (!Files.isDirectory(folder)) {
      throw new IOException("iperf3 folder not found: " + folder);
    }
    List<Path> files = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(folder, "*.json")) {
      ds.forEach(files::add);
    }
    files.sort(null);
    for (Path f : files) {
      try {
        Map.Entry<String, Point> e = parse(f);
        out.put(e.getKey(), e.getValue());
        move(f, "done");
      } catch (IOException | RuntimeException e) {
        LOG.warn("iperf3 import: {}: {}; moved to failed/", f, e.getMessage());
        move(f, "failed");
      }
    }
    return out;
  }

  /** Parses one iperf3 -J file into its series name and point. */
  static Map.Entry<String, Point> parse(Path f) throws IOException {
    JsonNode root = JSON.readTree(f.toFile());
    if (root.has("error")) {
      throw new IOException("iperf3 reported an error: " + root.get("error").asText());
    }
    JsonNode secs = root.path("start").path("timestamp").path("timesecs");
    JsonNode host = root.path("start").path("connected").path(0).path("remote_host");
    JsonNode bps = root.path("end").path("sum_received").path("bits_per_second");
    if (bps.isMissingNode()) {
      bps = root.path("end").path("sum").path("bits_per_second");
    }
    if (!secs.isNumber() || !host.isTextual() || !bps.isNumber()) {
      throw new IOException(
          "not an iperf3 -J result (needs start.timestamp.timesecs,"
              + " start.connected[0].remote_host, end.sum_received.bits_per_second)");
    }
    return Map.entry(
        "network/" + host.asText() + "/iperf_bandwidth",
        new Point(Instant.ofEpochSecond(secs.asLong()), bps.asDouble() / 8));
  }

  private void move(Path f, String sub) throws IOException {
    Path dir = folder.resolve(sub);
    Files.createDirectories(dir);
    Files.move(f, dir.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
  }
}
