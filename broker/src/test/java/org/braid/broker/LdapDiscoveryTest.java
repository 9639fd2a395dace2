package org.braid.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.unboundid.ldap.listener.InMemoryDirectoryServer;
import com.unboundid.ldap.listener.InMemoryDirectoryServerConfig;
import com.unboundid.ldap.listener.InMemoryListenerConfig;
import com.unboundid.ldap.sdk.Entry;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.braid.broker.catalog.Replica;
import org.braid.infoprovider.wire.AdAttributes;
import org.braid.infoprovider.wire.Endpoint;
import org.braid.infoprovider.wire.Glue2Extensions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Discovery through a directory, against the LDAP SDK's in-memory directory server on 127.0.0.1
 * (the real slapd is in the system tests): one search, answers split by host, bounded failures.
 */
class LdapDiscoveryTest {

  private static final Instant T0 = Instant.parse("2026-11-22T12:00:00Z");
  private InMemoryDirectoryServer ds;
  private final FakeClock clock = new FakeClock(T0);

  @BeforeEach
  void start() throws Exception {
    InMemoryDirectoryServerConfig c = new InMemoryDirectoryServerConfig("o=glue");
    c.setSchema(null); // the GLUE 2.0 schema is slapd's business (system tests)
    c.setListenerConfigs(
        InMemoryListenerConfig.createLDAPConfig(
            "default", InetAddress.getLoopbackAddress(), 0, null, false, false));
    ds = new InMemoryDirectoryServer(c);
    ds.startListening();
    ds.add(new Entry("dn: o=glue", "objectClass: organization", "o: glue"));
    ds.add(
        new Entry(
            "dn: GLUE2GroupID=resource,o=glue", "objectClass: GLUE2Group", "GLUE2GroupID: r"));
  }

  @AfterEach
  void stop() {
    ds.shutDown(true);
  }

  private URI url(String base) {
    return URI.create("ldap://127.0.0.1:" + ds.getListenPort() + "/" + base);
  }

  private LdapDiscovery discovery(String base, int sizeLimit) {
    return new LdapDiscovery(
        url(base),
        Duration.ofSeconds(1),
        Duration.ofSeconds(2),
        Duration.ofMinutes(1),
        Duration.ofSeconds(10),
        sizeLimit,
        clock,
        true,
        "10.0.0.9");
  }

  private static Map<String, Object> ad(String site, String endpoint, String peer, double avg) {
    Map<String, Object> ad = new LinkedHashMap<>();
    ad.put(AdAttributes.MY_TYPE, AdAttributes.STORAGE);
    ad.put(AdAttributes.HOSTNAME, site);
    ad.put(AdAttributes.VOLUME, "/");
    ad.put(AdAttributes.PEER, peer);
    if (endpoint != null) {
      AdAttributes.putEndpoint(ad, Endpoint.parse(endpoint));
    }
    ad.put("AvgRDBandwidth", avg);
    ad.put("RDTransfers", 40L);
    return ad;
  }

  private int n;

  private void add(String key, String value) throws Exception {
    String id = "x" + (++n);
    ds.add(
        new Entry(
            "dn: GLUE2ExtensionLocalID=" + id + ",GLUE2GroupID=resource,o=glue",
            "objectClass: GLUE2Extension",
            "GLUE2ExtensionLocalID: " + id,
            "GLUE2ExtensionKey: " + key,
            "GLUE2ExtensionValue: " + value,
            "GLUE2ExtensionEntityForeignKey: e"));
  }

  private void addAd(Map<String, Object> ad) throws Exception {
    add(Glue2Extensions.AD_KEY, Glue2Extensions.adValue(ad));
  }

  @Test
  void fetch_oneSearch_answersSplitByHost_withProbeLoads() throws Exception {
    Map<String, Object> a = ad("se-a.example.org", "gsiftp://se-a.example.org:2811", "p", 9e6);
    Map<String, Object> b = ad("se-b.example.org", "http://se-b.example.org:8080/", "p", 3e6);
    Map<String, Object> hostLevel = ad("se-c.example.org", null, "p", 1e6);
    addAd(a);
    addAd(b);
    addAd(hostLevel);
    add(
        Glue2Extensions.PROBE_KEY,
        Glue2Extensions.probeValue(
            new Glue2Extensions.Probe("se-a.example.org", "disk/sda/util_percent", T0, 37.5)));
    add(Glue2Extensions.AD_KEY, "not json"); // skipped, the rest is read
    add("other.key", "[{}]"); // not Braid's: not even returned
    try (LdapDiscovery d = discovery("o=glue", 100)) {
      URI dir = url("o=glue");
      URI ra = LdapDiscovery.routeUrl(dir, "SE-A.example.org");
      URI rb = LdapDiscovery.routeUrl(dir, "se-b.example.org");
      URI rc = LdapDiscovery.routeUrl(dir, "se-c.example.org");
      URI rx = LdapDiscovery.routeUrl(dir, "se-x.example.org");
      Map<URI, ProviderAnswer> got = d.fetch(List.of(ra, rb, rc, rx));
      assertEquals(List.of(a), got.get(ra).ads());
      assertEquals(Map.of("DiskLoad", 37.5), got.get(ra).loads());
      assertEquals(List.of(b), got.get(rb).ads());
      assertEquals(Map.of(), got.get(rb).loads());
      assertEquals(List.of(hostLevel), got.get(rc).ads());
      assertFalse(got.get(rx).ok());
      assertEquals(
          "directory ldap://127.0.0.1:"
              + ds.getListenPort()
              + "/o=glue has no storage ads for se-x.example.org",
          got.get(rx).error());

      // Within the TTL the directory is not asked again: the answers stay with the server gone.
      ds.shutDown(true);
      assertEquals(List.of(a), d.fetch(List.of(ra)).get(ra).ads());
      clock.advance(Duration.ofMinutes(2));
      assertTrue(d.fetch(List.of(ra)).get(ra).error().contains("cannot connect to 127.0.0.1:"));
    }
  }

  @Test
  void refresh_failures_oneLineNamingTheDirectory() throws Exception {
    String dir = "ldap://127.0.0.1:" + ds.getListenPort();
    IOException none = assertThrows(IOException.class, () -> discovery("o=glue", 100).refresh());
    assertEquals(
        "directory "
            + dir
            + "/o=glue: no Braid entries ("
            + Glue2Extensions.FILTER
            + ") under the base",
        none.getMessage());
    IOException base = assertThrows(IOException.class, () -> discovery("o=nowhere", 100).refresh());
    assertEquals(
        "directory " + dir + "/o=nowhere: base DN o=nowhere does not exist", base.getMessage());

    addAd(ad("a", "gsiftp://a:2811", "p", 1));
    addAd(ad("b", "gsiftp://b:2811", "p", 1));
    IOException size = assertThrows(IOException.class, () -> discovery("o=glue", 1).refresh());
    assertEquals(
        "directory "
            + dir
            + "/o=glue: more than 1 Braid entries under o=glue; raise the size limit",
        size.getMessage());
    discovery("o=glue", 2).refresh();

    int closed;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closed = s.getLocalPort();
    }
    LdapDiscovery dead =
        new LdapDiscovery(
            URI.create("ldap://127.0.0.1:" + closed + "/o=glue"),
            Duration.ofSeconds(1),
            Duration.ofSeconds(2),
            Duration.ofMinutes(1),
            Duration.ofSeconds(10),
            10,
            clock,
            true,
            null);
    long t0 = System.nanoTime();
    IOException down = assertThrows(IOException.class, dead::refresh);
    assertTrue(System.nanoTime() - t0 < 3e9);
    assertTrue(
        down.getMessage()
            .startsWith(
                "directory ldap://127.0.0.1:" + closed + "/o=glue: cannot connect to 127.0.0.1:"),
        down.getMessage());
    assertFalse(down.getMessage().contains("\n"));
  }

  @Test
  void parse_refusesUrlsThatAreNotHostAndBase() {
    assertEquals(
        "directory URL names no base DN, e.g. ldap://HOST:2170/o=glue: ldap://h:2170",
        assertThrows(
                IllegalArgumentException.class,
                () -> LdapDiscovery.parse(URI.create("ldap://h:2170")))
            .getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> LdapDiscovery.parse(URI.create("ldap://h:2170/o=glue??sub?(cn=x)")));
    assertThrows(
        IllegalArgumentException.class,
        () -> LdapDiscovery.parse(URI.create("http://h:2170/o=glue")));
    assertEquals(
        "directory URL names no host: ldap:///o=glue",
        assertThrows(
                IllegalArgumentException.class,
                () -> LdapDiscovery.parse(URI.create("ldap:///o=glue")))
            .getMessage());
  }

  @Test
  void broker_rankFromTheDirectory_ownEndpointFirst() throws Exception {
    addAd(ad("se-a.example.org", "gsiftp://se-a.example.org:2811", "p", 9e6));
    addAd(ad("se-b.example.org", "http://se-b.example.org:8080/", "p", 3e6));
    try (Broker broker =
        Broker.builder().directory(url("o=glue")).clock(clock).journal(null).build()) {
      broker.refreshDirectory();
      List<RankedReplica> ranked =
          broker.select(
              Request.builder(
                      List.of(
                          Replica.of(URI.create("http://se-b.example.org:8080/f")),
                          Replica.of(URI.create("gsiftp://se-a.example.org:2811/f")),
                          Replica.of(URI.create("gsiftp://se-b.example.org:2811/f"))))
                  .build());
      assertEquals("gsiftp://se-a.example.org:2811/f", ranked.get(0).replica().uri().toString());
      assertEquals("http://se-b.example.org:8080/f", ranked.get(1).replica().uri().toString());
      assertEquals("none", ranked.get(2).forecastSource());
    }
  }
}
