package org.braid.coalloc;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * Reads an HTTP {@code Retry-After} value (RFC 9110, section 10.2.3): delay-seconds or an HTTP
 * date. Stateless.
 */
final class RetryAfter {
  /** Longer values are read as this many seconds (a day): nobody waits that long anyway. */
  private static final long MAX_SECONDS = 86_400;

  private RetryAfter() {}

  /**
   * The delay the value asks for, at least zero and at most a day, or null if there is no value or
   * it is not one of the two forms.
   */
  static Duration parse(String value, Instant now) {
    if (value == null) {
      return null;
    }
    String v = value.trim();
    if (v.matches("\\d{1,18}")) {
      return Duration.ofSeconds(Math.min(MAX_SECONDS, Long.parseLong(v)));
    }
    if (v.length() > 64) {
      return null;
    }
    try {
      Instant at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
      long s = Duration.between(now, at).toSeconds();
      return Duration.ofSeconds(Math.max(0, Math.min(MAX_SECONDS, s)));
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
