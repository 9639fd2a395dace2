package org.braid.provider.publish;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.braid.infoprovider.SizeClass;
import org.braid.infoprovider.TransferRecord.Operation;
import org.braid.infoprovider.VolumeSpace;
import org.braid.infoprovider.stats.StatsKey;
import org.braid.infoprovider.stats.TransferStats;
import org.braid.infoprovider.store.Point;
import org.braid.infoprovider.wire.Endpoint;
import org.braid.infoprovider.wire.Glue2Extensions;
import org.braid.infoprovider.wire.ScopedStats;
import org.braid.predictors.Forecast;
import org.junit.jupiter.api.Test;

/** Both LDIF layouts: well-formed entries, parents first, and what a reader needs in them. */
class LdifLayoutTest {

  private static final Instant T = Instant.parse("2026-11-22T12:00:00.250Z");

  /** Two endpoints and host-level data, both operations, every size class, forecasts, space. */
  static Snapshot snapshot() {
    Forecast f = new Forecast("default", 6_500_000, 12.3, 3.2, 20, 5, "AVG25", Forecast.Status.OK);
    List<ScopedStats> stats = new ArrayList<>();
    List<Endpoint> scopes =
        new ArrayList<>(
            List.of(
                Endpoint.parse("gsiftp://se.example.org:2811"),
                Endpoint.parse("https://se.example.org/data")));
    scopes.add(null);
    for (Endpoint e : scopes) {
      for (Operation op : Operation.values()) {
        for (SizeClass sc : SizeClass.values()) {
          stats.add(
              new ScopedStats(
                  e,
                  new TransferStats(
                      new StatsKey("/data", "10.0.0.1", op, sc),
                      20,
                      1,
                      400_000_000,
                      1e6,
                      9e6,
                      5e6,
                      1e5,
                      5e6,
                      6e6,
                      T,
                      f)));
        }
      }
    }
    return new Snapshot(
        T,
        "se.example.org",
        stats,
        Map.of(),
        Map.of(),
        Map.of("disk/sda/util_percent", new Point(T, 42.5)),
        Map.of(
            "/data", new VolumeSpace("/data", Path.of("/srv/data"), 3_000_000_000L, 9_000_000_000L),
            "/empty", new VolumeSpace("/empty", Path.of("/srv/empty"), 1L, 2L)));
  }

  /** The entries of an LDIF text: each a list of (name, value) with the DN first. */
  static List<Map<String, List<String>>> entries(String ldif) {
    List<Map<String, List<String>>> out = new ArrayList<>();
    for (String block : ldif.split("\n\n")) {
      if (block.isBlank()) {
        continue;
      }
      Map<String, List<String>> e = new LinkedHashMap<>();
      for (String line : block.split("\n")) {
        int colon = line.indexOf(':');
        assertTrue(colon > 0, "not an attribute line: " + line);
        e.computeIfAbsent(line.substring(0, colon), k -> new ArrayList<>())
            .add(line.substring(colon + 1).replaceFirst("^:? ", ""));
      }
      out.add(e);
    }
    return out;
  }

  private static void assertParentsFirst(List<Map<String, List<String>>> entries, String suffix) {
    Set<String> seen = new HashSet<>();
    for (Map<String, List<String>> e : entries) {
      String dn = e.get("dn").get(0);
      assertTrue(e.containsKey("objectClass"), dn);
      String parent = dn.replaceFirst("^(?:[^,\\\\]|\\\\.)*,", "");
      assertTrue(parent.equals(suffix) || seen.contains(parent), "parent missing: " + dn);
      seen.add(dn);
    }
  }

  @Test
  void figure3_everyAttributeInTheSchema_parentsFirst() throws IOException {
    String ldif = Figure3Ldif.render(snapshot());
    List<Map<String, List<String>>> entries = entries(ldif);
    assertParentsFirst(entries, "o=grid");
    Set<String> declared = new HashSet<>(List.of("dn", "objectClass", "cn", "dc"));
    Matcher m = Pattern.compile("NAME '(\\w+)'").matcher(Figure3Schema.schema());
    while (m.find()) {
      declared.add(m.group(1));
    }
    Set<String> used = new HashSet<>();
    entries.forEach(e -> used.addAll(e.keySet()));
    used.removeAll(declared);
    assertEquals(Set.of(), used);
    assertTrue(ldif.contains("\npredwrconfidencepctonegbrange: 3.2\n"), ldif);
    assertTrue(
        ldif.contains(
            "\ndn: volume=/empty,hostname=se.example.org,dc=example,dc=org,o=grid\n"
                + "objectClass: braidVolume\n"),
        ldif);
  }

  @Test
  void figure3Schema_shippedFilesAreTheGeneratedOnes() throws IOException {
    assertEquals(Figure3Schema.schema(), resource(Figure3Schema.RESOURCE));
    assertEquals(Figure3Schema.ldif(), resource(Figure3Schema.LDIF_RESOURCE));
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = Figure3Schema.class.getResourceAsStream(name)) {
      assertTrue(in != null, name);
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void glue2_adsAreThoseOfV1Ads_underTheirEndpoint_parentsFirst() throws IOException {
    Snapshot snap = snapshot();
    String ldif = Glue2Ldif.render(snap, "EXAMPLE", Glue2Ldif.DEFAULT_BASE);
    List<Map<String, List<String>>> entries = entries(ldif);
    assertParentsFirst(entries, Glue2Ldif.DEFAULT_BASE);
    List<Map<String, Object>> ads = new ArrayList<>();
    List<Glue2Extensions.Probe> probes = new ArrayList<>();
    int endpoints = 0;
    int capacities = 0;
    for (Map<String, List<String>> e : entries) {
      List<String> classes = e.get("objectClass");
      if (classes.contains("GLUE2StorageEndpoint")) {
        endpoints++;
      }
      if (classes.contains("GLUE2StorageShareCapacity")) {
        capacities++;
      }
      if (classes.contains("GLUE2Extension")) {
        String value = e.get("GLUE2ExtensionValue").get(0);
        if (e.get("GLUE2ExtensionKey").get(0).equals(Glue2Extensions.AD_KEY)) {
          ads.add(Glue2Extensions.readAd(value));
        } else {
          probes.add(Glue2Extensions.readProbe(value));
        }
      }
    }
    assertEquals(2, endpoints);
    assertEquals(2, capacities);
    assertEquals(
        new HashSet<>(StorageAds.ads(snap, null)).size(), new HashSet<>(ads).size(), "ads");
    assertEquals(new HashSet<>(StorageAds.ads(snap, null)), new HashSet<>(ads));
    assertEquals(
        List.of(new Glue2Extensions.Probe("se.example.org", "disk/sda/util_percent", T, 42.5)),
        probes);
    assertTrue(
        ldif.contains(
            "\ndn: GLUE2ExtensionLocalID=ad:10.0.0.1@/data,GLUE2EndpointID=urn:braid:endpoint:"
                + "https://se.example.org:443/data/,GLUE2ServiceID=urn:braid:storage:"
                + "se.example.org,GLUE2GroupID=resource,o=glue\n"),
        ldif);
    assertTrue(ldif.contains("\nGLUE2StorageShareCapacityTotalSize: 9\n"), ldif);
    assertTrue(ldif.contains("\nGLUE2EntityCreationTime: 2026-11-22T12:00:00Z\n"), ldif);
  }

  @Test
  void layout_parse_andDefaultSite() {
    assertEquals(LdifLayout.FIGURE3, LdifLayout.parse("Figure3"));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> LdifLayout.parse("glue"));
    assertEquals("LDIF layout must be glue2 or figure3: glue", e.getMessage());
    assertEquals("example.org", LdifLayout.defaultSite("se.example.org"));
    assertEquals("localhost", LdifLayout.defaultSite("localhost"));
  }
}
