package org.braid.coalloc;

/** Formats an exception as one line for logs, journals and reports. */
final class OneLine {
  private OneLine() {}

  static String of(Throwable t) {
    String m = t.getMessage();
    if (m == null || m.isBlank()) {
      m = t.getClass().getSimpleName();
    }
    return m.replace('\n', ' ').replace('\r', ' ');
  }
}
