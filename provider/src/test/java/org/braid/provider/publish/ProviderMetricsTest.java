package org.braid.provider.publish;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.braid.infoprovider.TransferRecord;
import org.braid.infoprovider.TransferRecord.Operation;
import org.braid.infoprovider.logs.ParseReport;
import org.braid.infoprovider.wire.Endpoint;
import org.junit.jupiter.api.Test;

/** Counters for events, gauges for levels, stable series, units in names, build and process. */
class ProviderMetricsTest {

  private static final Instant T = Instant.parse("2026-11-22T12:00:00Z");

  private static TransferRecord transfer(long size, String code) {
    return new TransferRecord(
        "se",
        "10.0.0.1",
        "/data/f",
        size,
        T,
        T.plusSeconds(2),
        1,
        TransferRecord.UNKNOWN,
        TransferRecord.UNKNOWN,
        Operation.READ,
        "/data",
        code,
        "gsiftp");
  }

  @Test
  void counters_countEvents_typesAndUnitsInNames() {
    ProviderMetrics m = new ProviderMetrics(LdifLayoutTest::snapshot);
    Endpoint e = Endpoint.parse("gsiftp://se.example.org:2811");
    m.transferStored(e, transfer(1_000, "226"));
    m.transferStored(e, transfer(2_000, "226"));
    m.transferStored(e, transfer(5_000, "530"));
    m.transferStored(null, transfer(7, "226"));
    ParseReport r = new ParseReport();
    r.recordLine();
    r.reject("x", 2, "bad timestamp", "bad timestamp: x");
    r.reject("x", 3, "bad timestamp", "bad timestamp: y");
    m.logPolled("/var/log/x.log", r);
    m.probeRun("disk", true);
    m.probeRun("disk", false);
    String t = m.text();
    String ep = "endpoint=\"gsiftp://se.example.org:2811\",operation=\"read\"";
    assertTrue(t.contains("# TYPE braid_provider_transfers_total counter\n"), t);
    assertEquals(
        2.0,
        MetricsText.value(
            t, "braid_provider_transfers_total{" + ep + ",result=\"ok\",volume=\"/data\"}"));
    assertEquals(
        1.0,
        MetricsText.value(
            t, "braid_provider_transfers_total{" + ep + ",result=\"failed\",volume=\"/data\"}"));
    assertEquals(
        3000.0,
        MetricsText.value(
            t, "braid_provider_transferred_bytes_total{" + ep + ",volume=\"/data\"}"));
    assertEquals(
        7.0,
        MetricsText.value(
            t,
            "braid_provider_transferred_bytes_total{endpoint=\"\",operation=\"read\","
                + "volume=\"/data\"}"));
    assertEquals(
        2.0,
        MetricsText.value(
            t,
            "braid_provider_rejected_lines_total{log=\"/var/log/x.log\",reason=\"bad timestamp\"}"));
    assertEquals(
        3.0, MetricsText.value(t, "braid_provider_log_lines_total{log=\"/var/log/x.log\"}"));
    assertEquals(2.0, MetricsText.value(t, "braid_provider_probe_runs_total{probe=\"disk\"}"));
    assertEquals(1.0, MetricsText.value(t, "braid_provider_probe_failures_total{probe=\"disk\"}"));

    // Build and process metrics.
    assertEquals(
        1.0,
        MetricsText.value(t, "braid_build_info{version=\"" + ProviderMetrics.version() + "\"}"));
    assertTrue(t.contains("# TYPE process_cpu_seconds_total counter\n"), t);
    assertTrue(MetricsText.value(t, "process_start_time_seconds") > 1.6e9);
    assertTrue(MetricsText.value(t, "process_resident_memory_bytes") > 0);
  }

  @Test
  void gauges_levels_predictorOnItsOwnSeries_unitsNeverShared() {
    String t = new ProviderMetrics(LdifLayoutTest::snapshot).text();
    String l =
        "{endpoint=\"gsiftp://se.example.org:2811\",operation=\"read\",peer=\"10.0.0.1\","
            + "size_class=\"all\",volume=\"/data\"}";
    assertTrue(t.contains("# TYPE braid_provider_window_transfers gauge\n"), t);
    assertEquals(20.0, MetricsText.value(t, "braid_provider_window_transfers" + l));
    // The forecast series does not carry the predictor: choosing another keeps its identity.
    assertEquals(6_500_000.0, MetricsText.value(t, "braid_provider_forecast_bytes_per_second" + l));
    assertEquals(12.3, MetricsText.value(t, "braid_provider_forecast_error_percent" + l));
    assertFalse(
        t.contains(
            "braid_provider_forecast_bytes_per_second{endpoint=\"gsiftp://se.example.org:2811\",operation=\"read\",peer=\"10.0.0.1\",predictor"),
        t);
    assertEquals(
        1.0,
        MetricsText.value(
            t,
            "braid_provider_forecast_predictor_info{endpoint=\"gsiftp://se.example.org:2811\","
                + "operation=\"read\",peer=\"10.0.0.1\",predictor=\"AVG25\",size_class=\"all\","
                + "volume=\"/data\"}"));
    // Percent and bytes per second are separate metrics.
    assertEquals(
        42.5, MetricsText.value(t, "braid_provider_disk_utilization_percent{device=\"sda\"}"));
    assertFalse(t.contains("braid_provider_probe_value"), t);
    assertEquals(
        9.0e9, MetricsText.value(t, "braid_provider_volume_total_bytes{volume=\"/data\"}"));
    for (String line : t.split("\n")) {
      if (line.startsWith("# TYPE ") && line.endsWith(" counter")) {
        assertTrue(line.split(" ")[2].endsWith("_total"), line);
      }
    }
  }

  @Test
  void logMissing_followsTheSnapshot() {
    Snapshot s = LdifLayoutTest.snapshot().withMissingLogs(Map.of("/l", true));
    Snapshot[] now = {s};
    ProviderMetrics m = new ProviderMetrics(() -> now[0]);
    assertEquals(1.0, MetricsText.value(m.text(), "braid_provider_log_missing{log=\"/l\"}"));
    now[0] = s.withMissingLogs(Map.of("/l", false));
    assertEquals(0.0, MetricsText.value(m.text(), "braid_provider_log_missing{log=\"/l\"}"));
    assertEquals(List.of(), List.of());
  }
}
