package org.braid.cli.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.LayoutBase;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.TimeZone;

/**
 * Formats a log line exactly as the pattern {@value LogConfigurator#PATTERN} does, without
 * logback's pattern machinery or {@code java.time}'s formatters: loading those (about 200 classes,
 * many of them generated at run time) would add a good part of a second to a cold start without
 * class-data sharing.
 *
 * <p>The default time zone is looked up at the first line, not before: reading the time-zone
 * database costs a few milliseconds that a run which logs nothing need not spend.
 *
 * <p>Thread-safe.
 */
public final class LogLineLayout extends LayoutBase<ILoggingEvent> {

  private volatile TimeZone zone;

  /** A layout in the default time zone ({@code TZ}, else the system's) at its first line. */
  public LogLineLayout() {}

  /** A layout in {@code zone}. */
  public LogLineLayout(TimeZone zone) {
    this.zone = (TimeZone) zone.clone();
  }

  private TimeZone zone() {
    TimeZone z = zone;
    if (z == null) {
      z = TimeZone.getDefault(); // a copy; racing threads get equal ones
      zone = z;
    }
    return z;
  }

  @Override
  public String doLayout(ILoggingEvent event) {
    StringBuilder b = new StringBuilder(128);
    appendTime(b, event.getTimeStamp());
    String level = event.getLevel().levelStr;
    b.append(' ').append(level);
    for (int i = level.length(); i < 5; i++) {
      b.append(' ');
    }
    b.append(' ').append(event.getLoggerName()).append(" - ").append(event.getFormattedMessage());
    b.append(CoreConstants.LINE_SEPARATOR);
    IThrowableProxy thrown = event.getThrowableProxy();
    if (thrown != null) {
      b.append(ThrowableProxyUtil.asString(thrown)); // ends with a line separator
    }
    return b.toString();
  }

  /** Appends yyyy-MM-dd'T'HH:mm:ss.SSSXXX. */
  private void appendTime(StringBuilder b, long epochMilli) {
    ZoneOffset offset = ZoneOffset.ofTotalSeconds(zone().getOffset(epochMilli) / 1000);
    LocalDateTime t =
        LocalDateTime.ofEpochSecond(
            Math.floorDiv(epochMilli, 1000L),
            (int) Math.floorMod(epochMilli, 1000L) * 1_000_000,
            offset);
    pad(b, t.getYear(), 4).append('-');
    pad(b, t.getMonthValue(), 2).append('-');
    pad(b, t.getDayOfMonth(), 2).append('T');
    pad(b, t.getHour(), 2).append(':');
    pad(b, t.getMinute(), 2).append(':');
    pad(b, t.getSecond(), 2).append('.');
    pad(b, t.getNano() / 1_000_000, 3);
    int seconds = offset.getTotalSeconds();
    if (seconds == 0) {
      b.append('Z');
    } else {
      int minutes = Math.abs(seconds) / 60;
      b.append(seconds < 0 ? '-' : '+');
      pad(b, minutes / 60, 2).append(':');
      pad(b, minutes % 60, 2);
    }
  }

  private static StringBuilder pad(StringBuilder b, int value, int width) {
    String s = Integer.toString(value);
    for (int i = s.length(); i < width; i++) {
      b.append('0');
    }
    return b.append(s);
  }
}
