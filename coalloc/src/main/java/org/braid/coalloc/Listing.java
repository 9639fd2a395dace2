package org.braid.coalloc;

import java.net.URI;
import java.util.List;
import java.util.Objects;

/**
 * The files of a directory tree on one replica.
 *
 * @param root the listed directory
 * @param files every regular file below it, in the order found (directories first reached first)
 * @param refused entries that were not taken, each with the reason: a hostile or invalid name, a
 *     special file (device, socket, pipe), a symbolic link
 */
public record Listing(URI root, List<ListedFile> files, List<String> refused) {
  /** Copies the lists. */
  public Listing {
    Objects.requireNonNull(root, "root");
    files = List.copyOf(files);
    refused = List.copyOf(refused);
  }
}
