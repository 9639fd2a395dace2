package org.braid.cli;

import org.braid.coalloc.DownloadException;

/**
 * The exit codes of {@code braid get} (listed in docs/download.md and in {@code braid get --help}).
 * Other commands use {@link #OK}, {@link #USAGE} and {@link #INTERNAL}.
 */
final class ExitCodes {
  /** The file is complete and verified, and every replica served it well. */
  static final int OK = 0;

  /** A failure with no better code: a bug, or an unexpected error. */
  static final int INTERNAL = BraidCli.EXIT_FAILURE;

  /** Bad options or bad input (an invalid catalog, Metalink, checksum or URL). */
  static final int USAGE = BraidCli.EXIT_USAGE;

  /** The file is complete and verified, but some replica failed on the way (and was dropped). */
  static final int REPLICA_FAILED = 3;

  /** No replica could deliver the file: unreachable, refusing, erroring, too slow. */
  static final int NETWORK = 4;

  /** The data is not what was promised: checksum, piece hashes or declared size differ. */
  static final int VERIFICATION = 5;

  /**
   * The output cannot be written or was refused: no space, no permission, an I/O error, not a
   * regular file, an existing file without {@code --force}.
   */
  static final int DISK = 6;

  /** Interrupted (Ctrl-C); run again to resume. */
  static final int INTERRUPTED = 130;

  private ExitCodes() {}

  /** The exit code for a failed download. */
  static int of(DownloadException.Kind kind) {
    switch (kind) {
      case NETWORK:
        return NETWORK;
      case VERIFICATION:
        return VERIFICATION;
      case DISK:
      case OUTPUT:
        return DISK;
      case CANCELLED:
        return INTERRUPTED;
      default:
        return INTERNAL;
    }
  }

  /** The exit code's name in {@code --json} error objects. */
  static String name(int code) {
    switch (code) {
      case USAGE:
        return "usage";
      case REPLICA_FAILED:
        return "replica-failed";
      case NETWORK:
        return "network";
      case VERIFICATION:
        return "verification";
      case DISK:
        return "disk";
      case INTERRUPTED:
        return "interrupted";
      case OK:
        return "ok";
      default:
        return "internal";
    }
  }
}
