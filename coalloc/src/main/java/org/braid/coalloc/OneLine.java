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

  /**
   * The text, cut to at most 64 characters with "..." where it was cut (for values a server sent).
   */
  static String abbreviate(String s) {
    String t = s.replace('\n', ' ').replace('\r', ' ');
    return t.length() <= 64 ? t : t.substring(0, 61) + "...";
  }
}
