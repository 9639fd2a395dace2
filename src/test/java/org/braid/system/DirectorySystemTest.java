package org.braid.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.braid.cli.BraidCli;
import org.braid.infoprovider.wire.Glue2Extensions;
import org.braid.provider.Provider;
import org.braid.provider.ProviderConfig;
import org.braid.provider.publish.Figure3Ldif;
import org.braid.provider.publish.Figure3Schema;
import org.braid.provider.publish.StorageAds;
import org.braid.testkit.RealComponent;
import org.braid.testkit.SlapdServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 19, the grid's information system for real: three information providers (one GridFTP door,
 * two nginx doors, at clearly different speeds, in two sites' domains) publish their LDIF into a
 * real OpenLDAP slapd loaded with the GLUE 2.0 schema (Debian glue-schema) and Braid's Figure 3
 * schema; both layouts load with {@code ldapadd} and read back with {@code ldapsearch}, and {@code
 * braid rank --bdii} ranks the three sites from the directory alone exactly as it does over HTTP:
 * same order, same predicted rates, same sources.
 */
class DirectorySystemTest {

  static final String FAST = "gsiftp://127.0.0.1:2811/data/run42.h5";
  static final String MID = "http://127.0.0.1:18082/data/run42.h5";
  static final String SLOW = "http://127.0.0.1:18083/data/run42.h5";
  static final String NONE = "http://127.0.0.1:18084/data/run42.h5";

  @TempDir static Path dir;
  static final List<Provider> providers = new ArrayList<>();
  static final List<Path> configs = new ArrayList<>();
  static SlapdServer slapd;

  @BeforeAll
  static void start() throws Exception {
    Path schema = dir.resolve("braid-figure3.schema");
    try (InputStream in = Figure3Schema.class.getResourceAsStream(Figure3Schema.RESOURCE)) {
      Files.write(schema, in.readAllBytes());
    }
    slapd =
        SlapdServer.builder(dir.resolve("slapd"))
            .schema(SlapdServer.glue2Schema())
            .schema(schema)
            .suffix("o=glue")
            .suffix("o=grid")
            .start();

    Instant t0 = Instant.now().minus(Duration.ofHours(3));
    SplittableRandom rnd = new SplittableRandom(19);
    StringBuilder gftp = new StringBuilder();
    StringBuilder mid = new StringBuilder();
    StringBuilder slow = new StringBuilder();
    for (int i = 0; i < 40; i++) {
      long bytes = 5_000_000 + rnd.nextInt(20_000_000);
      Instant s = t0.plusSeconds(i * 120L);
      Instant e = s.plusNanos((long) (bytes / (20e6 * (0.9 + 0.2 * rnd.nextDouble())) * 1e9));
      gftp.append(BrokerRankSystemTest.gridftp(s, e, bytes, i));
      mid.append(BrokerRankSystemTest.nginx(s, bytes, 8e6 * (0.9 + 0.2 * rnd.nextDouble()), "m"));
      slow.append(BrokerRankSystemTest.nginx(s, bytes, 3e6 * (0.9 + 0.2 * rnd.nextDouble()), "s"));
    }
    provider("fast.site-a.org", gftp, "gridftp", "gsiftp://127.0.0.1:2811");
    provider("mid.site-b.net", mid, "nginx", "http://127.0.0.1:18082/");
    provider("slow.site-a.org", slow, "nginx", "http://127.0.0.1:18083/");
  }

  static void provider(String host, CharSequence log, String format, String endpoint)
      throws Exception {
    String name = host.substring(0, host.indexOf('.'));
    Path logFile = Files.writeString(dir.resolve(name + ".log"), log);
    Path yaml =
        Files.writeString(
            dir.resolve(name + ".yaml"),
            String.join(
                "\n",
                "hostname: " + host,
                "database: " + dir.resolve(name + ".db"),
                "http: {port: 0}",
                "logs:",
                "  - path: " + logFile,
                "    format: " + format,
                "    endpoint: " + endpoint,
                ""));
    Provider p = Provider.fromConfig(ProviderConfig.load(yaml), InstantSource.system());
    providers.add(p);
    configs.add(yaml);
    p.start(); // reads the log first
  }

  @AfterAll
  static void stop() throws Exception {
    for (Provider p : providers) {
      p.close();
    }
    if (slapd != null) {
      slapd.close();
    }
  }

  static String[] run(int expectedExit, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = BraidCli.execute(new PrintWriter(out), new PrintWriter(err), args);
    assertEquals(expectedExit, code, out + "\n" + err);
    return new String[] {out.toString(), err.toString()};
  }

  /** Each provider's LDIF in a layout, written by {@code braid provider ldif --config}. */
  static List<Path> ldif(String layout) throws Exception {
    List<Path> out = new ArrayList<>();
    for (Path yaml : configs) {
      String text = run(0, "provider", "ldif", "--layout", layout, "--config", yaml.toString())[0];
      out.add(Files.writeString(Path.of(yaml + "." + layout + ".ldif"), text));
    }
    return out;
  }

  /** The values of one attribute in ldapsearch output. */
  static List<String> values(String ldif, String attribute) {
    List<String> v = new ArrayList<>();
    for (String line : ldif.split("\n")) {
      if (line.startsWith(attribute + ": ")) {
        v.add(line.substring(attribute.length() + 2));
      }
    }
    return v;
  }

  @Test
  void glue2_loadsIntoSlapd_readsBack_andRanksAsOverHttp() throws Exception {
    Path base =
        Files.writeString(
            dir.resolve("glue-base.ldif"),
            String.join(
                "\n",
                "dn: o=glue",
                "objectClass: organization",
                "o: glue",
                "",
                "dn: GLUE2GroupID=resource,o=glue",
                "objectClass: GLUE2Group",
                "GLUE2GroupID: resource",
                ""));
    SlapdServer.Result r = slapd.ldapadd("o=glue", base, false);
    assertEquals(0, r.exit(), r.output());
    for (Path ldif : ldif("glue2")) {
      r = slapd.ldapadd("o=glue", ldif, false);
      assertEquals(0, r.exit(), ldif + ": " + r.output());
    }

    // Read back: every provider's /v1/ads ads, exactly, in GLUE 2.0 extension entries.
    String found = slapd.ldapsearch("o=glue", Glue2Extensions.FILTER, "GLUE2ExtensionValue");
    Set<Map<String, Object>> published = new HashSet<>();
    for (Provider p : providers) {
      published.addAll(StorageAds.ads(p.snapshot(), null));
    }
    Set<Map<String, Object>> read = new HashSet<>();
    for (String v : values(found, "GLUE2ExtensionValue")) {
      read.add(Glue2Extensions.readAd(v));
    }
    assertEquals(3, published.size());
    assertEquals(published, read);
    assertEquals(
        List.of("gsiftp://127.0.0.1:2811", "http://127.0.0.1:18082", "http://127.0.0.1:18083"),
        values(
                slapd.ldapsearch(
                    "o=glue", "(objectClass=GLUE2StorageEndpoint)", "GLUE2EndpointURL"),
                "GLUE2EndpointURL")
            .stream()
            .sorted()
            .toList());

    // The same ranking from the directory alone as from the providers over HTTP.
    List<String> http = new ArrayList<>(List.of("rank", "--json", "--no-journal", "--size", "20M"));
    http.addAll(List.of("--no-conventional"));
    String[] servers = {"127.0.0.1:2811", "127.0.0.1:18082", "127.0.0.1:18083"};
    for (int i = 0; i < 3; i++) {
      http.addAll(
          List.of(
              "--provider",
              servers[i] + "=http://127.0.0.1:" + providers.get(i).httpPort() + "/v1/ads"));
    }
    http.addAll(List.of(SLOW, NONE, MID, FAST));
    JsonNode overHttp = new ObjectMapper().readTree(run(0, http.toArray(String[]::new))[0]);
    String bdii = slapd.url() + "/o=glue";
    JsonNode fromDirectory =
        new ObjectMapper()
            .readTree(
                run(
                    0,
                    "rank",
                    "--json",
                    "--no-journal",
                    "--size",
                    "20M",
                    "--bdii",
                    bdii,
                    SLOW,
                    NONE,
                    MID,
                    FAST)[0]);
    assertEquals(
        List.of(FAST, MID, SLOW, NONE),
        List.of(
            fromDirectory.get(0).get("url").asText(),
            fromDirectory.get(1).get("url").asText(),
            fromDirectory.get(2).get("url").asText(),
            fromDirectory.get(3).get("url").asText()));
    for (int i = 0; i < 4; i++) {
      JsonNode h = overHttp.get(i);
      JsonNode d = fromDirectory.get(i);
      assertEquals(h.get("url"), d.get("url"));
      assertEquals(h.get("matched"), d.get("matched"));
      assertEquals(h.get("predictedBandwidth"), d.get("predictedBandwidth"), d.toString());
      assertEquals(h.get("errorPct"), d.get("errorPct"));
      assertEquals(h.get("rank"), d.get("rank"));
      assertEquals(h.get("source"), d.get("source"));
    }
    double fast = fromDirectory.get(0).get("predictedBandwidth").asDouble();
    double mid = fromDirectory.get(1).get("predictedBandwidth").asDouble();
    double slow = fromDirectory.get(2).get("predictedBandwidth").asDouble();
    assertTrue(fast > 15e6 && fast < 25e6, "fast " + fast);
    assertTrue(mid > 6e6 && mid < 10e6, "mid " + mid);
    assertTrue(slow > 2e6 && slow < 4e6, "slow " + slow);
    assertEquals("provider", fromDirectory.get(0).get("source").asText());
    assertTrue(fromDirectory.get(3).get("predictedBandwidth").isNull());
    assertEquals(
        "provider "
            + bdii
            + "#127.0.0.1 publishes no statistics for endpoint http://127.0.0.1:18084 (only for"
            + " gsiftp://127.0.0.1:2811, http://127.0.0.1:18082, http://127.0.0.1:18083)",
        fromDirectory.get(3).get("discovery").asText());

    // A base DN the directory does not hold: one line, exit 1.
    String[] bad = run(1, "rank", "--no-journal", "--bdii", slapd.url() + "/o=nowhere", FAST);
    assertEquals(
        "braid: directory " + slapd.url() + "/o=nowhere: base DN o=nowhere does not exist\n",
        bad[1]);
  }

  @Test
  void figure3_loadsWithBraidsSchema_readsBack() throws Exception {
    Path base =
        Files.writeString(
            dir.resolve("grid-base.ldif"), "dn: o=grid\nobjectClass: organization\no: grid\n");
    SlapdServer.Result r = slapd.ldapadd("o=grid", base, false);
    assertEquals(0, r.exit(), r.output());
    List<Path> files = ldif("figure3");
    for (Path ldif : files) {
      r = slapd.ldapadd("o=grid", ldif, true);
      // fast and slow share their domain's dc entries: the second provider finds them there.
      for (String line : r.output().split("\n")) {
        assertTrue(
            line.isBlank()
                || line.startsWith("adding new entry ")
                || line.equals("ldap_add: Already exists (68)"),
            ldif + ": " + r.output());
      }
      assertTrue(r.exit() == 0 || r.exit() == 68, ldif + ": " + r.output());
    }
    String stats =
        slapd.ldapsearch("o=grid", "(objectClass=braidStorageStats)", "hostname", "avgrdbandwidth");
    List<String> hosts = values(stats, "hostname").stream().sorted().toList();
    assertEquals(List.of("fast.site-a.org", "mid.site-b.net", "slow.site-a.org"), hosts);
    Set<String> expected = new HashSet<>();
    for (Provider p : providers) {
      for (Map<String, Object> ad : StorageAds.ads(p.snapshot(), null)) {
        expected.add(Figure3Ldif.k((Double) ad.get("AvgRDBandwidth")));
      }
    }
    assertEquals(expected, new HashSet<>(values(stats, "avgrdbandwidth")));
    assertTrue(
        stats.contains(
            "dn: cn=10.1.2.3,volume=/,hostname=slow.site-a.org,dc=site-a,dc=org,o=grid\n"),
        stats);
  }

  @Test
  void figure3Schema_cnConfigForm_loadsWithSlapadd() throws Exception {
    Path ldif = dir.resolve("braid-figure3.ldif");
    try (InputStream in = Figure3Schema.class.getResourceAsStream(Figure3Schema.LDIF_RESOURCE)) {
      Files.write(ldif, in.readAllBytes());
    }
    Path conf = Files.createDirectories(dir.resolve("cn-config/slapd.d"));
    Path config =
        Files.writeString(
            dir.resolve("cn-config/config.ldif"),
            String.join(
                "\n",
                "dn: cn=config",
                "objectClass: olcGlobal",
                "cn: config",
                "",
                "dn: cn=schema,cn=config",
                "objectClass: olcSchemaConfig",
                "cn: schema",
                "",
                "include: file:///etc/ldap/schema/core.ldif",
                "",
                "include: file:///etc/ldap/schema/cosine.ldif",
                "",
                "include: file://" + ldif.toAbsolutePath(),
                ""));
    Process p =
        new ProcessBuilder(
                RealComponent.executable("slapadd", "slapd").toString(),
                "-n0",
                "-F",
                conf.toString(),
                "-l",
                config.toString())
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), out);
    assertTrue(
        Files.isRegularFile(conf.resolve("cn=config/cn=schema/cn={2}braid-figure3.ldif")), out);
  }
}
