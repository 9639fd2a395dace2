package org.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProviderLdifServeCommandTest {

  @TempDir Path dir;

  private int run(StringWriter out, StringWriter err, String... args) {
    return BraidCli.execute(new PrintWriter(out), new PrintWriter(err), args);
  }

  @Test
  void ldif_fromLogs_printsFigure3Shape() throws Exception {
    Path log = dir.resolve("x.log");
    Files.writeString(log, ProviderStatsCommandTest.LOG);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        run(
            out,
            err,
            "provider",
            "ldif",
            "--layout",
            "figure3",
            "--format",
            "gridftp",
            "--hostname",
            "dpslx04.lbl.gov",
            "--url",
            "gsiftp://dpslx04.lbl.gov:61000",
            log.toString());
    assertEquals(0, code, err.toString());
    double bw1 = 3_000_000 / 0.002268;
    double bw2 = 5_000 / 0.000333;
    String expectedHead =
        String.join(
            "\n",
            "dn: cn=127.0.0.1,volume=/,hostname=dpslx04.lbl.gov,dc=lbl,dc=gov,o=grid",
            "objectClass: braidStorageStats",
            "cn: 127.0.0.1",
            "hostname: dpslx04.lbl.gov",
            "gridftpurl: gsiftp://dpslx04.lbl.gov:61000",
            "volume: /",
            "minrdbandwidth: " + Math.round(Math.min(bw1, bw2) / 1000) + "K",
            "maxrdbandwidth: " + Math.round(Math.max(bw1, bw2) / 1000) + "K",
            "avgrdbandwidth: " + Math.round((bw1 + bw2) / 2 / 1000) + "K");
    assertTrue(out.toString().contains("\n" + expectedHead + "\n"), out.toString());
    assertTrue(
        out.toString().startsWith("dn: dc=gov,o=grid\nobjectClass: domain\ndc: gov\n"),
        out.toString());
    assertTrue(
        out.toString()
            .contains("\navgrdbandwidthtenmbrange: " + Math.round((bw1 + bw2) / 2 / 1000) + "K\n"));
    assertTrue(
        out.toString()
            .contains("\nminwrbandwidth: " + Math.round(200_000 / 0.000919 / 1000) + "K\n"));
  }

  @Test
  void ldif_fromTheDaemonsDatabase_readsTheStoreNotTheLogs() throws Exception {
    Path log = dir.resolve("gridftp.log");
    Files.writeString(log, ProviderStatsCommandTest.LOG);
    Path yaml = dir.resolve("provider.yaml");
    Files.writeString(
        yaml,
        String.join(
            "\n",
            "hostname: gridftp.example.org",
            "url: gsiftp://gridftp.example.org:2811",
            "database: " + dir.resolve("provider.db"),
            "logs:",
            "  - {path: " + log + ", format: gridftp}",
            ""));
    try (org.braid.provider.Provider p =
        org.braid.provider.Provider.fromConfig(
            org.braid.provider.ProviderConfig.load(yaml), java.time.InstantSource.system())) {
      p.refresh(); // what the daemon does on its schedule
    }
    Files.writeString(
        log,
        ProviderStatsCommandTest.LOG
                .lines()
                .findFirst()
                .get()
                .replace("NBYTES=3000000", "NBYTES=3000001")
            + "\n",
        java.nio.file.StandardOpenOption.APPEND); // not in the database: must not show
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    assertEquals(
        0,
        run(out, err, "provider", "ldif", "--layout", "figure3", "--config", yaml.toString()),
        err.toString());
    assertTrue(
        out.toString()
            .contains(
                "\ndn: cn=127.0.0.1,volume=/,hostname=gridftp.example.org,dc=example,dc=org,o=grid\n"),
        out.toString());
    assertTrue(out.toString().contains("\ngridftpurl: gsiftp://gridftp.example.org:2811\n"));
    assertTrue(out.toString().contains("\nrdtransfers: 2\n"), out.toString());
    assertTrue(out.toString().contains("\nwrtransfers: 1\n"), out.toString());

    // The default layout: GLUE 2.0, the ad of /v1/ads in an extension entry under its endpoint.
    StringWriter glue = new StringWriter();
    assertEquals(
        0,
        run(glue, err, "provider", "ldif", "--site", "EXAMPLE-SITE", "--config", yaml.toString()),
        err.toString());
    String g = glue.toString();
    assertTrue(
        g.startsWith(
            "dn: GLUE2ServiceID=urn:braid:storage:gridftp.example.org,GLUE2GroupID=resource,o=glue\n"
                + "objectClass: GLUE2Service\nobjectClass: GLUE2StorageService\n"),
        g);
    assertTrue(g.contains("\nGLUE2ServiceAdminDomainForeignKey: EXAMPLE-SITE\n"), g);
    assertTrue(
        g.contains(
            "\ndn: GLUE2ExtensionLocalID=ad:127.0.0.1@/,GLUE2EndpointID=urn:braid:endpoint:"
                + "gsiftp://gridftp.example.org:2811,GLUE2ServiceID=urn:braid:storage:"
                + "gridftp.example.org,GLUE2GroupID=resource,o=glue\n"),
        g);
    assertTrue(g.contains("\nGLUE2ExtensionKey: braid.storageAd\n"), g);
    assertTrue(g.contains("\"RDTransfers\":2,"), g);
  }

  @Test
  void ldif_withoutSource_exitsTwo() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    assertEquals(2, run(out, err, "provider", "ldif"));
    assertEquals("braid: give --config FILE, or --format FORMAT and LOG files\n", err.toString());
  }

  @Test
  void serve_badConfig_exitsTwoWithOneLine() throws Exception {
    Path yaml = dir.resolve("p.yaml");
    Files.writeString(yaml, "logs: []\n");
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    assertEquals(2, run(out, err, "provider", "serve", "--config", yaml.toString()));
    assertEquals("braid: " + yaml + ": line 1: logs: at least one log is needed\n", err.toString());
  }

  @Test
  void serve_missingConfig_exitsTwoWithOneLine() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    Path yaml = dir.resolve("nope.yaml");
    assertEquals(2, run(out, err, "provider", "serve", "--config", yaml.toString()));
    assertEquals("braid: configuration file not found: " + yaml + "\n", err.toString());
  }

  @Test
  void serve_realProcess_servesThenStopsCleanlyOnSigterm() throws Exception {
    Path log = dir.resolve("gridftp.log");
    Files.writeString(log, ProviderStatsCommandTest.LOG);
    Path yaml = dir.resolve("provider.yaml");
    Files.writeString(
        yaml,
        String.join(
            "\n",
            "hostname: vm.example.org",
            "database: " + dir.resolve("provider.db"),
            "http: {port: 0}",
            "logs:",
            "  - {path: " + log + ", format: gridftp}",
            ""));
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Path stdout = dir.resolve("stdout.txt");
    Process p =
        new ProcessBuilder(
                java.toString(),
                "-cp",
                System.getProperty("java.class.path"),
                BraidCli.class.getName(),
                "provider",
                "serve",
                "--config",
                yaml.toString())
            .redirectOutput(stdout.toFile())
            .redirectError(dir.resolve("stderr.txt").toFile())
            .start();
    try {
      String first = "";
      for (int i = 0; i < 600 && first.isEmpty() && p.isAlive(); i++) {
        Thread.sleep(50); // waiting for the child JVM to start, not for a timer
        first = Files.readString(stdout).lines().findFirst().orElse("");
      }
      Matcher m =
          Pattern.compile(
                  "braid provider: serving on http://127\\.0\\.0\\.1:(\\d+) \\(1 logs, 0 probes, database .*\\)")
              .matcher(first);
      assertTrue(m.matches(), first + " / " + Files.readString(dir.resolve("stderr.txt")));
      HttpResponse<String> r =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create(
                              "http://127.0.0.1:"
                                  + m.group(1)
                                  + "/v1/stats?operation=write&sizeClass=10M"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertEquals(200, r.statusCode());
      assertTrue(r.body().contains("\"bytes\":200000"), r.body());
      p.destroy(); // SIGTERM
      assertTrue(p.waitFor(30, TimeUnit.SECONDS));
      assertEquals(
          "braid provider: stopped",
          Files.readString(stdout).lines().skip(1).findFirst().orElse(""));
    } finally {
      p.destroyForcibly();
    }
    assertEquals(143, p.exitValue()); // 128 + SIGTERM, after the shutdown hook ran
  }
}
