package org.braid.coalloc;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Counts each replica's failures and decides whether it backs off or is dropped: a failed request
 * or a bad piece makes a replica wait {@code 250 ms * 2^n} (n consecutive failures, at most 7)
 * before its next request, or longer if the server said so ({@code Retry-After}); a non-retryable
 * error, {@link Guards#maxTries()} failures in a row (default {@link #MAX_CONSECUTIVE_FAILURES}), a
 * {@code Retry-After} beyond {@link Guards#maxRetryAfter()} or {@link #MAX_BAD_PIECES} bad pieces
 * drop it. A request that ends well resets the count. Not thread-safe: guarded by the scheduler's
 * lock.
 */
final class ReplicaHealth {
  /** A consecutive failure count at which a replica is dropped even for retryable errors. */
  static final int MAX_CONSECUTIVE_FAILURES = 4;

  /** Bad pieces after which a replica is dropped. */
  static final int MAX_BAD_PIECES = 3;

  private final List<Replica> replicas;
  private final int maxTries;
  private final long maxRetryAfterNanos;

  ReplicaHealth(List<Replica> replicas) {
    this(replicas, Guards.DEFAULT);
  }

  /**
   * Health kept with the guards' {@link Guards#maxTries()} (failures in a row that drop a replica)
   * and {@link Guards#maxRetryAfter()} (the longest {@code Retry-After} waited for; a replica
   * asking for more is dropped).
   */
  ReplicaHealth(List<Replica> replicas, Guards guards) {
    this.replicas = replicas;
    this.maxTries = guards.maxTries();
    this.maxRetryAfterNanos = guards.maxRetryAfter().toNanos();
  }

  /** A request of the replica ended well. */
  void succeeded(Replica r) {
    r.consecutiveFailures = 0;
  }

  /**
   * A request of the live replica failed: true if it must be dropped now, else it backs off.
   *
   * @param retryable whether the error may go away on a later request
   */
  boolean failed(Replica r, boolean retryable, long now) {
    return failed(r, retryable, null, now);
  }

  /**
   * A request of the live replica failed: true if it must be dropped now, else it backs off, at
   * least as long as the server asked ({@code Retry-After}, null if it did not).
   */
  boolean failed(Replica r, boolean retryable, Duration retryAfter, long now) {
    r.failures++;
    r.consecutiveFailures++;
    long asked = retryAfter == null ? 0 : retryAfter.toNanos();
    if (!retryable || r.consecutiveFailures >= maxTries || asked > maxRetryAfterNanos) {
      return true;
    }
    backOff(r, now);
    r.backoffUntilNanos = Math.max(r.backoffUntilNanos, now + asked);
    return false;
  }

  /**
   * The replica wrote bytes of a piece that failed its check: the piece's range is remembered (to
   * fetch it from another replica), and a live replica has a failure counted. True if it must be
   * dropped now, else it backs off.
   */
  boolean badPiece(Replica r, ByteRange piece, long now) {
    r.badRanges.remove(piece.start(), piece.end());
    r.badRanges.add(piece.start(), piece.end());
    if (r.dropped) {
      return false;
    }
    r.failures++;
    r.badPieces++;
    r.consecutiveFailures++;
    if (r.badPieces >= MAX_BAD_PIECES) {
      return true;
    }
    backOff(r, now);
    return false;
  }

  /** Why a replica is dropped for bad pieces checked with the given algorithm. */
  String badPiecesReason(Replica r, String algorithm) {
    return r.uri + ": " + r.badPieces + " pieces failed the " + algorithm + " check";
  }

  private static void backOff(Replica r, long now) {
    r.backoffUntilNanos =
        now + TimeUnit.MILLISECONDS.toNanos(250L << Math.min(7, r.consecutiveFailures));
  }

  /** Nanoseconds the replica still waits before its next request; 0 or less when it may go. */
  long backoffLeft(Replica r, long now) {
    return r.backoffUntilNanos - now;
  }

  /** Whether the replica served the byte at {@code offset} badly before. */
  boolean servedBadly(Replica r, long offset) {
    return r.badRanges.contains(offset, offset + 1);
  }

  /** Marks the replica dropped for the given reason. */
  void drop(Replica r, String reason) {
    r.dropped = true;
    r.dropReason = reason;
  }

  boolean allDropped() {
    return replicas.stream().allMatch(r -> r.dropped);
  }

  /**
   * The kind of failure of a download whose every replica was dropped: {@link
   * DownloadException.Kind#VERIFICATION} when each was dropped for bad pieces, else {@link
   * DownloadException.Kind#NETWORK}.
   */
  DownloadException.Kind allDroppedKind() {
    return replicas.stream().allMatch(r -> r.badPieces >= MAX_BAD_PIECES)
        ? DownloadException.Kind.VERIFICATION
        : DownloadException.Kind.NETWORK;
  }

  /** The message for a download whose every replica was dropped: each reason in turn. */
  String allDroppedMessage() {
    StringBuilder sb = new StringBuilder("every replica failed:");
    for (Replica r : replicas) {
      sb.append(' ').append(r.dropReason).append(';');
    }
    sb.setLength(sb.length() - 1);
    return sb.toString();
  }
}
