package org.braid.infoprovider.logs;

/**
 * A log line that cannot be read as a transfer. The {@link #reason()} is short and stable (used to
 * count rejections); the message adds the detail. Carries no stack trace: malformed lines are
 * expected and must be cheap.
 */
public final class MalformedLineException extends Exception {

  private final String reason;

  /**
   * Creates the exception.
   *
   * @param reason short stable reason, e.g. "missing key CODE"
   * @param detail the offending value or context, may be empty
   */
  public MalformedLineException(String reason, String detail) {
    super(detail.isEmpty() ? reason : reason + ": " + detail, null, false, false);
    this.reason = reason;
  }

  /** The short reason, e.g. "negative NBYTES". */
  public String reason() {
    return reason;
  }
}
