package org.braid.cli;

import java.nio.file.Path;
import java.time.Duration;
import org.braid.coalloc.ListLimits;
import picocli.CommandLine.Option;

/** The options of {@code braid get} for a whole dataset (a picocli mixin). */
final class DatasetOptions {

  @Option(
      names = {"-d", "--dir"},
      paramLabel = "DIR",
      description =
          "Download a dataset into DIR, each file at its relative path (checked: no '..', no"
              + " absolute path, no link or device followed). Needs -r URL..., --metalink,"
              + " --catalog or -i.")
  Path dir;

  @Option(
      names = {"-i", "--input-file"},
      paramLabel = "LIST",
      description =
          "With -d: an aria2-style input list, one file per entry: its replica URLs on one line"
              + " (tab-separated), then indented out=NAME, dir=DIR, checksum=sha-256=HEX lines."
              + " Read while the job runs: a bad entry after the first 16 stops it (exit code 2),"
              + " keeping the files verified before it.")
  Path inputList;

  @Option(
      names = {"-r", "--recursive"},
      description =
          "With -d: the URLs are replicas of one directory tree, each listed recursively (WebDAV"
              + " PROPFIND, nginx JSON autoindex, GridFTP MLSD, local directories); files are"
              + " matched by relative path, and a file missing on a replica has fewer replicas.")
  boolean recursive;

  @Option(
      names = {"-j", "--concurrency"},
      paramLabel = "N",
      description =
          "With -d: files fetched at once, 1..1024 (default: from the plan: enough per server to"
              + " keep its predicted rate, at least 10 MB/s, busy; 4..64).")
  int concurrency;

  @Option(
      names = "--coallocate-above",
      paramLabel = "SECONDS",
      defaultValue = "2",
      description =
          "With -d: co-allocate a file across its replicas when the fastest alone would take"
              + " longer than this (default: ${DEFAULT-VALUE}).")
  double coallocateAbove;

  @Option(
      names = "--checksums",
      paramLabel = "FILE",
      description =
          "With -d: a sha256sum-style list (or md5sum, sha1sum, sha512sum, BSD tagged) of the"
              + " dataset's relative paths; every file must match.")
  Path checksums;

  @Option(
      names = "--client-capacity",
      paramLabel = "RATE",
      description =
          "This client's access link, e.g. 1Gbit/s, for the broker (--metalink, --catalog, -d):"
              + " no forecast exceeds it, history measured while it was full counts as a lower"
              + " bound, and with -d the batch plan shares it among the files.")
  String clientCapacity;

  @Option(
      names = "--listing-timeout",
      paramLabel = "SECONDS",
      defaultValue = "600",
      description =
          "With -r: the most time to list one replica's tree (default: ${DEFAULT-VALUE}).")
  double listingTimeout;

  /**
   * --client-capacity in bytes per second.
   *
   * @throws IllegalArgumentException naming the option if it is not a rate
   */
  double clientCapacityRate() {
    try {
      return Units.rate(clientCapacity);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--client-capacity: " + e.getMessage(), e);
    }
  }

  /** The limits of a recursive listing. */
  ListLimits listLimits() {
    Duration t = GetCommand.seconds(listingTimeout, "--listing-timeout");
    ListLimits d = ListLimits.DEFAULT;
    return new ListLimits(d.maxResponseBytes(), d.maxEntries(), d.maxDepth(), t);
  }
}
