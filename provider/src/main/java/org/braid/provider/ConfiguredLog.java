package org.braid.provider;

import java.io.IOException;
import java.util.Objects;
import org.braid.infoprovider.logs.LogTailer;
import org.braid.infoprovider.logs.ParseReport;
import org.braid.infoprovider.wire.Endpoint;
import org.braid.provider.publish.ProviderMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One configured log: its tailer and the endpoint its statistics are published for.
 *
 * @param tailer reads what is new in the log into the store
 * @param endpoint the endpoint ({@link ProviderConfig#endpointOf}), null for host-level
 */
record ConfiguredLog(LogTailer tailer, Endpoint endpoint) {

  private static final Logger LOG = LoggerFactory.getLogger(ConfiguredLog.class);

  ConfiguredLog {
    Objects.requireNonNull(tailer, "tailer");
  }

  /**
   * Reads what is new in the log into the store, logging what was found; a failure is logged (the
   * next poll tries again) and reads nothing.
   */
  ParseReport poll(ProviderMetrics metrics) {
    try {
      ParseReport r = tailer.poll();
      metrics.logPolled(tailer.path().toString(), r);
      if (r.lines() > 0) {
        LOG.info(
            "log {}: {} lines, {} transfers, {} rejected",
            tailer.path(),
            r.lines(),
            r.records(),
            r.rejected());
        for (ParseReport.Rejection x : r.examples()) {
          LOG.warn("log {}: rejected {}", tailer.path(), x);
        }
      }
      return r;
    } catch (IOException | RuntimeException e) {
      LOG.error("log {}: {}", tailer.path(), e.toString());
      metrics.logFailed(tailer.path().toString());
      return new ParseReport();
    }
  }
}
