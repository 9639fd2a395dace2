package org.braid.provider.publish;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.braid.infoprovider.SizeClass;
import org.braid.infoprovider.TransferRecord.Operation;
import org.braid.infoprovider.stats.StatsKey;
import org.braid.infoprovider.stats.TransferStats;
import org.braid.infoprovider.wire.Endpoint;
import org.braid.infoprovider.wire.ScopedStats;
import org.braid.predictors.Forecast;
import org.junit.jupiter.api.Test;

class RenderersTest {

  private static final Instant T = Instant.parse("2026-11-22T12:00:00Z");

  private static Snapshot snap(String volume, String peer, Forecast f) {
    TransferStats all =
        new TransferStats(
            new StatsKey(volume, peer, Operation.READ, SizeClass.ALL),
            3,
            1,
            30_000_000,
            1_462_000,
            12_800_000,
            6_000_000,
            100,
            5_000_000,
            6_100_000,
            T,
            f);
    TransferStats small =
        new TransferStats(
            new StatsKey(volume, peer, Operation.READ, SizeClass.C10M),
            3,
            1,
            30_000_000,
            1_462_000,
            12_800_000,
            5_714_000,
            100,
            5_000_000,
            6_100_000,
            T,
            f);
    return new Snapshot(
        T,
        "dpslx04.lbl.gov",
        List.of(all, small).stream()
            .map(s -> new ScopedStats(Endpoint.parse("gsiftp://dpslx04.lbl.gov:61000"), s))
            .toList(),
        Map.of("/var/log/a \"b\".log", Map.of("bad\nreason", 2L)),
        Map.of("/var/log/a \"b\".log", true),
        Map.of(),
        Map.of());
  }

  @Test
  void ldif_figure3Values_andForecastAttributes() {
    Forecast f =
        new Forecast("default", 6_500_000, 12.34, 3.21, 20, 5, "AVG25", Forecast.Status.OK);
    String ldif = Figure3Ldif.render(snap("/", "140.221.65.69", f));
    assertTrue(
        ldif.contains(
            String.join(
                "\n",
                "",
                "dn: cn=140.221.65.69,volume=/,hostname=dpslx04.lbl.gov,dc=lbl,dc=gov,o=grid",
                "objectClass: braidStorageStats",
                "cn: 140.221.65.69",
                "hostname: dpslx04.lbl.gov",
                "gridftpurl: gsiftp://dpslx04.lbl.gov:61000",
                "volume: /",
                "minrdbandwidth: 1462K",
                "maxrdbandwidth: 12800K",
                "avgrdbandwidth: 6000K",
                "")),
        ldif);
    assertTrue(ldif.contains("\navgrdbandwidthtenmbrange: 5714K\n"), ldif);
    assertTrue(
        ldif.contains("\npredrdbandwidth: 6500K\npredrderrorpct: 12.3\npredrdconfidencepct: 3.2\n"),
        ldif);
    assertTrue(ldif.contains("\npredrdbandwidthtenmbrange: 6500K\n"), ldif);
  }

  @Test
  void ldif_specialCharacters_escapedInDnAndBase64InValues() {
    String ldif = Figure3Ldif.render(snap("/data,x=1", " café", null));
    assertTrue(ldif.contains("\ndn:: "), ldif); // non-ASCII in the DN: base64
    assertTrue(ldif.contains("\ncn:: IGNhZsOp\n"), ldif);
    assertEquals("a\\,b\\=c\\+d", LdifText.rdn("a,b=c+d"));
    assertEquals("\\#x", LdifText.rdn("#x"));
  }

  @Test
  void prometheus_labelValuesEscaped() {
    String m = new ProviderMetrics(() -> snap("/", "p", null)).text();
    assertTrue(m.contains("braid_provider_log_missing{log=\"/var/log/a \\\"b\\\".log\"} 1.0\n"), m);
    assertEquals(
        5714000.0,
        MetricsText.value(
            m,
            "braid_provider_bandwidth_bytes_per_second{endpoint=\"gsiftp://dpslx04.lbl.gov:61000\","
                + "operation=\"read\",peer=\"p\",size_class=\"10M\",stat=\"mean\",volume=\"/\"}"));
  }

  @Test
  void classAd_stringsEscaped_noPredictionWithoutForecast() {
    String ads = StorageAds.classAds(snap("/a\"b", "p", Forecast.insufficient("default", 3)), null);
    assertTrue(ads.contains("  volume = \"/a\\\"b\";\n"), ads);
    assertTrue(ads.contains("  MinRDBandwidth = 1462000.000;\n"), ads);
    assertTrue(!ads.contains("Pred"), ads);
  }
}
