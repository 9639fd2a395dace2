package org.braid.infoprovider.logs;

import java.util.Locale;

/** The transfer-log formats the provider reads. See docs/provider.md for each exact format. */
public enum LogFormat {
  /** Globus GridFTP server {@code -log-transfer} NetLogger lines. */
  GRIDFTP,
  /** nginx access log in Braid's {@code log_format braid}. */
  NGINX,
  /** Apache httpd access log in Braid's {@code LogFormat ... braid}. */
  APACHE,
  /** Braid's client journal: one JSON object per flow. */
  BRAID;

  /** A parser for this format. */
  public LogParser parser() {
    switch (this) {
      case GRIDFTP:
        return new GridFtpLogParser();
      case NGINX:
        return new AccessLogParser(AccessLogParser.TimeUnit.SECONDS);
      case APACHE:
        return new AccessLogParser(AccessLogParser.TimeUnit.MICROSECONDS);
      case BRAID:
        return new JournalParser();
      default:
        throw new AssertionError(this);
    }
  }

  /** The lower-case name: gridftp, nginx, apache, braid. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Parses a format name (any case).
   *
   * @throws IllegalArgumentException naming the accepted formats
   */
  public static LogFormat parse(String s) {
    for (LogFormat f : values()) {
      if (f.label().equalsIgnoreCase(s)) {
        return f;
      }
    }
    throw new IllegalArgumentException("log format must be gridftp, nginx, apache or braid: " + s);
  }
}
