package org.braid.matchmaking;

/**
 * Thrown when HTCondor's evaluation would fail outright; the entry point turns it to error.
 *
 * <p>A failed evaluation in HTCondor still leaves a value in the result it was writing to, and a
 * list subscript (and an ad subscript) hands that value on instead of failing. {@link #left} tracks
 * it as the failure unwinds: an operator or function whose operand failed sets error; a reference
 * {@code expr.attr} whose {@code expr} failed, or a failed list projection, leaves its result
 * untouched (undefined); an attribute's value is written straight into the caller's result, so it
 * passes the value on.
 */
final class EvalFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The value HTCondor's failed evaluation leaves behind at the current frame. */
  Value left;

  EvalFailure(String why) {
    this(why, false);
  }

  /** noScope: no enclosing ad was found, so nothing was written (undefined). */
  EvalFailure(String why, boolean noScope) {
    super(why, null, false, false);
    this.left = noScope ? Value.UNDEFINED : Value.ERROR;
  }

  EvalFailure leaving(Value v) {
    left = v;
    return this;
  }
}
