package org.braid.infoprovider;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The space of one volume as its file store reported it when the statistics were published:
 * published as {@code AvailableSpace} and {@code TotalSpace} (bytes) in the volume's ads.
 *
 * @param volume the volume name
 * @param dataDirectory the directory whose file store was asked
 * @param available bytes this process could still write ({@link FileStore#getUsableSpace()})
 * @param total the file store's size in bytes ({@link FileStore#getTotalSpace()})
 */
public record VolumeSpace(String volume, Path dataDirectory, long available, long total) {

  /**
   * Checks the figures.
   *
   * @throws NullPointerException if volume or dataDirectory is null
   * @throws IllegalArgumentException if a figure is negative
   */
  public VolumeSpace {
    Objects.requireNonNull(volume, "volume");
    Objects.requireNonNull(dataDirectory, "dataDirectory");
    if (available < 0 || total < 0) {
      throw new IllegalArgumentException(
          "space of " + volume + " must not be negative: " + available + ", " + total);
    }
  }

  /**
   * Reads the usable and total space of the file store holding {@code dataDirectory} now.
   *
   * @throws IOException if the directory is gone or its file store cannot be asked
   */
  public static VolumeSpace read(String volume, Path dataDirectory) throws IOException {
    FileStore fs = Files.getFileStore(dataDirectory);
    // Some file systems report more than Long.MAX_VALUE as a negative number.
    long total = fs.getTotalSpace();
    long usable = fs.getUsableSpace();
    return new VolumeSpace(
        volume,
        dataDirectory,
        usable < 0 ? Long.MAX_VALUE : usable,
        total < 0 ? Long.MAX_VALUE : total);
  }
}
