package org.braid.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

class QuietLogsTest {
  private final Logger download = LoggerFactory.getLogger("org.braid.coalloc.Download");
  private final Logger credentials = LoggerFactory.getLogger(QuietLogs.CREDENTIALS);

  @Test
  void quiet_hidesRequestWarnings_keepsCredentialWarnings_thenRestores() {
    boolean downloadBefore = download.isWarnEnabled();
    boolean credentialsBefore = credentials.isInfoEnabled();
    QuietLogs q = QuietLogs.forCommand(/* verbose= */ false);
    try {
      assertFalse(download.isWarnEnabled());
      assertTrue(download.isErrorEnabled());
      assertTrue(credentials.isWarnEnabled());
      assertFalse(credentials.isInfoEnabled());
    } finally {
      q.close();
    }
    assertTrue(download.isWarnEnabled() == downloadBefore);
    assertTrue(credentials.isInfoEnabled() == credentialsBefore);
  }

  @Test
  void verbose_showsInfoEverywhere() {
    QuietLogs q = QuietLogs.forCommand(/* verbose= */ true);
    try {
      assertTrue(download.isInfoEnabled());
      assertTrue(credentials.isInfoEnabled());
    } finally {
      q.close();
    }
  }
}
