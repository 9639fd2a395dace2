package org.braid.provider.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.braid.infoprovider.store.Point;

/**
 * Disk load from {@code /proc/diskstats}, computed like {@code iostat -x} from two readings:
 * utilisation = milliseconds spent doing I/O / elapsed milliseconds * 100 (field 13), and
 * throughput = (sectors read + sectors written) * 512 bytes / elapsed seconds, in MB/s (decimal).
 * Series per device: {@code disk/DEV/util_percent} and {@code disk/DEV/mb_per_second}. The first
 * call only records the baseline. Not thread-safe (one scheduler thread).
 */
public final class DiskProbe implements Probe {

  /** The kernel's disk statistics file. */
  public static final Path PROC_DISKSTATS = Path.of("/proc/diskstats");

  private record Reading(long sectors, long ioMillis) {}

  private final Path diskstats;
  private final List<String> devices;
  private final InstantSource clock;
  private Instant lastTime;
  private Map<String, Reading> last = Map.of();

  /**
   * Creates the probe.
   *
   * @param diskstats the file to read, normally {@link #PROC_DISKSTATS}
   * @param devices device names as in the file (e.g. sda, nvme0n1), at least one
   * @param clock the clock that times the readings
   * @throws IllegalArgumentException if devices is empty
   */
  public DiskProbe(Path diskstats, List<String> devices, InstantSource clock) {
    this.diskstats = Objects.requireNonNull(diskstats, "diskstats");
    this.devices = List.copyOf(devices);
    this.clock = Objects.requireNonNull(clock, "clock");
    if (this.devices.isEmpty()) {
      throw new IllegalArgumentException("disk probe needs at least one device");
    }
  }

  @Override
  public String name() {
    return "disk " + String.join(",", devices);
  }

  /** The series name of a device's utilisation. */
  public static String utilSeries(String device) {
    return "disk/" + device + "/util_percent";
  }

  @Override
  public Map<String, Point> measure() throws IOException {
    Instant now = clock.instant();
    Map<String, Reading> current = read();
    Map<String, Point> out = new LinkedHashMap<>();
    if (lastTime != null && now.isAfter(lastTime)) {
      double elapsedMs = (now.toEpochMilli() - lastTime.toEpochMilli());
      for (String dev : devices) {
        Reading a = last.get(dev);
        Reading b = current.get(dev);
        if (a == null || b == null || b.sectors < a.sectors || b.ioMillis < a.ioMillis) {
          continue; // device appeared, vanished, or counters reset
        }
        double util = Math.min(100.0, (b.ioMillis - a.ioMillis) / elapsedMs * 100.0);
        double mbps = (b.sectors - a.sectors) * 512.0 / 1e6 / (elapsedMs / 1000.0);
        out.put(utilSeries(dev), new Point(now, util));
        out.put("disk/" + dev + "/mb_per_second", new Point(now, mbps));
      }
    }
    for (String dev : devices) {
      if (!current.containsKey(dev)) {
        throw new IOException("disk probe: device " + dev + " not found in " + diskstats);
      }
    }
    lastTime = now;
    last = current;
    return out;
  }

  private Map<String, Reading> read() throws IOException {
    Map<String, Reading> m = new HashMap<>();
    for (String line : Files.readAllLines(diskstats)) {
      String[] f = line.trim().split("\\s+");
      if (f.length < 14 || !devices.contains(f[2])) {
        continue;
      }
      try {
        long sectors = Long.parseLong(f[5]) + Long.parseLong(f[9]);
        long io = Long.parseLong(f[12]);
        m.put(f[2], new Reading(sectors, io));
      } catch (NumberFormatException e) {
        throw new IOException("disk probe: bad line in " + diskstats + ": " + line, e);
      }
    }
    return m;
  }
}
