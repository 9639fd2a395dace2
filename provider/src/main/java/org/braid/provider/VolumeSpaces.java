package org.braid.provider;

import java.io.IOException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.braid.infoprovider.VolumeSpace;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the space of the configured volumes; a volume whose file store cannot be asked is left out
 * and warned about once until it can be asked again. Thread-safe.
 */
final class VolumeSpaces {

  private static final Logger LOG = LoggerFactory.getLogger(VolumeSpaces.class);

  private final List<ProviderConfig.Volume> volumes;

  /** Volumes whose space could not be read at the last try (guarded by this). */
  private final Set<String> failing = new HashSet<>();

  VolumeSpaces(List<ProviderConfig.Volume> volumes) {
    this.volumes = List.copyOf(volumes);
  }

  boolean isEmpty() {
    return volumes.isEmpty();
  }

  /** The space of each configured volume now, by volume name. */
  synchronized Map<String, VolumeSpace> read() {
    Map<String, VolumeSpace> out = new LinkedHashMap<>();
    for (ProviderConfig.Volume v : volumes) {
      try {
        out.put(v.volume(), VolumeSpace.read(v.volume(), v.dataDirectory()));
        failing.remove(v.volume());
      } catch (IOException | RuntimeException e) {
        if (failing.add(v.volume())) {
          LOG.warn(
              "volume {}: cannot read the space of dataDirectory {}: {}; not published",
              v.volume(),
              v.dataDirectory(),
              e.toString());
        }
      }
    }
    return out;
  }
}
