package org.braid.coalloc;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;

/**
 * A replica failed to deliver a range correctly. Subclasses say how; {@link #retryable()} says
 * whether the same replica may be asked again after a back-off (a reset, a 5xx, a stall) or must be
 * dropped (it ignores ranges, lies about them, or serves a different version of the file).
 */
public class SourceException extends IOException {
  private final URI uri;
  private final boolean retryable;

  /**
   * Creates the exception.
   *
   * @param uri the replica
   * @param message what went wrong, without the URI (it is prepended)
   * @param retryable whether the replica may be asked again later
   * @param cause the underlying failure, or null
   */
  public SourceException(URI uri, String message, boolean retryable, Throwable cause) {
    super(uri + ": " + message, cause);
    this.uri = uri;
    this.retryable = retryable;
  }

  /** The replica that failed. */
  public URI uri() {
    return uri;
  }

  /** Whether asking the same replica again after a back-off may succeed. */
  public boolean retryable() {
    return retryable;
  }

  /** How long the server asked to wait before the next request ({@code Retry-After}), or null. */
  public Duration retryAfter() {
    return null;
  }

  /** The server answered a range request with the whole file (status 200). */
  public static final class RangeIgnoredException extends SourceException {
    /** Creates the exception for the given replica and request. */
    public RangeIgnoredException(URI uri, long offset, long length) {
      super(
          uri,
          "server ignored the range request bytes="
              + offset
              + "-"
              + (offset + length - 1)
              + " and answered 200 with the whole file",
          false,
          null);
    }
  }

  /** The server's Content-Range or Content-Length does not match the request. */
  public static final class BadRangeException extends SourceException {
    /** Creates the exception with a message naming the expected and received values. */
    public BadRangeException(URI uri, String message) {
      super(uri, message, false, null);
    }
  }

  /**
   * The body ended before the requested length (retryable: the connection was cut) or ran past it
   * (not retryable: the server does not answer what was asked).
   */
  public static final class BodyLengthException extends SourceException {
    /** Creates the exception for a body that ended early. */
    public BodyLengthException(URI uri, String message, Throwable cause) {
      super(uri, message, true, cause);
    }

    /** Creates the exception, saying whether the body was too long. */
    public BodyLengthException(URI uri, String message, boolean tooLong) {
      super(uri, message, !tooLong, null);
    }
  }

  /** The server answered with an HTTP error status. 5xx and 429 are retryable, others not. */
  public static final class HttpStatusException extends SourceException {
    private final int status;
    private final Duration retryAfter;

    /** Creates the exception for the given status and reason phrase. */
    public HttpStatusException(URI uri, int status, String reason) {
      this(uri, status, reason, null);
    }

    /**
     * Creates the exception for the given status and reason phrase, with the server's {@code
     * Retry-After} (null if it sent none).
     */
    public HttpStatusException(URI uri, int status, String reason, Duration retryAfter) {
      super(
          uri,
          "HTTP "
              + status
              + (reason == null || reason.isBlank() ? "" : " " + reason)
              + (retryAfter == null ? "" : " (Retry-After " + retryAfter.toSeconds() + " s)"),
          status >= 500 || status == 429 || status == 408,
          null);
      this.status = status;
      this.retryAfter = retryAfter;
    }

    @Override
    public Duration retryAfter() {
      return retryAfter;
    }

    /** The HTTP status code. */
    public int status() {
      return status;
    }
  }

  /** No byte arrived for longer than the stall timeout. */
  public static final class StalledException extends SourceException {
    /** Creates the exception. */
    public StalledException(URI uri, String message, Throwable cause) {
      super(uri, message, true, cause);
    }
  }

  /** The connection failed (refused, reset, closed) while a range was in transfer. */
  public static final class ConnectionException extends SourceException {
    /** Creates the exception. */
    public ConnectionException(URI uri, String message, Throwable cause) {
      super(uri, message, true, cause);
    }
  }

  /** The replica now serves a different version: size, ETag or Last-Modified changed. */
  public static final class ReplicaChangedException extends SourceException {
    /** Creates the exception with a message naming the old and new validator. */
    public ReplicaChangedException(URI uri, String message) {
      super(uri, message, false, null);
    }
  }
}
