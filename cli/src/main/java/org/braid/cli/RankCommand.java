package org.braid.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.braid.broker.Broker;
import org.braid.broker.Plan;
import org.braid.broker.RankedReplica;
import org.braid.broker.Request;
import org.braid.broker.catalog.CatalogException;
import org.braid.broker.catalog.Catalogs;
import org.braid.broker.catalog.Replica;
import org.braid.coalloc.Download;
import org.braid.infoprovider.wire.ProviderApi;
import org.braid.predictors.SizeClasses;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code braid rank}: rank the replicas of a file by their predicted performance. */
@Command(
    name = "rank",
    mixinStandardHelpOptions = true,
    description = {
      "Rank the replicas of a file by predicted transfer rate (the broker, paper 003 section 2).",
      "",
      "For every replica it asks the replica host's information provider (braid provider; "
          + "http://HOST:8790/v1/ads unless --provider or the catalog says otherwise) for its "
          + "published performance, all at once with a timeout, and uses this client's own journal "
          + "where it has history with the server. Each replica becomes a storage ad (AvgRDBandwidth, "
          + "PredictedBandwidth, PredictionError, ...); the request's --requirements and --rank "
          + "(ClassAd expressions, 'other' is the storage ad, 5M/sec notation allowed) match and "
          + "order them. A replica whose provider is silent stays listed, with undefined attributes "
          + "and the reason. Each replica gets the statistics of its own endpoint (scheme, host, "
          + "port, path prefix): a door the provider publishes nothing for is listed as unknown "
          + "(source none), never given another door's figures; host-level data is used only when "
          + "nothing else exists, as source provider-host with its error widened by 100 points.",
      "",
      "With --bdii the broker asks no provider: one subtree search of an LDAP directory (a BDII "
          + "fed by braid provider ldif, GLUE 2.0 layout) reads every site's storage ads, and "
          + "each replica gets those of its own endpoint, as over HTTP."
    })
final class RankCommand implements Runnable {

  @Spec CommandSpec spec;

  @Parameters(
      paramLabel = "URL",
      arity = "0..*",
      description = "Replica URLs (http, https, gsiftp, ftp, file).")
  List<String> urls = new ArrayList<>();

  @Mixin CatalogOptions source;

  @Option(
      names = "--requirements",
      paramLabel = "EXPR",
      defaultValue = "true",
      description =
          "The request's Requirements, e.g. 'other.AvgRDBandwidth > 5M/sec'. Default: ${DEFAULT-VALUE}.")
  String requirements;

  @Option(
      names = "--rank",
      paramLabel = "EXPR",
      defaultValue = Request.DEFAULT_RANK,
      description = "The request's Rank. Default: ${DEFAULT-VALUE} (for the file's size class).")
  String rank;

  @Option(
      names = "--size",
      paramLabel = "BYTES",
      description =
          "File size (K, M, G, T are powers of 1000), selects the size class. Default: the catalog's, else unknown.")
  String size;

  @Option(
      names = "--provider",
      paramLabel = "HOST=URL",
      description = "The information provider of a host (host or host:port), repeatable.")
  List<String> providers = new ArrayList<>();

  @Option(
      names = "--provider-port",
      paramLabel = "PORT",
      defaultValue = "8790",
      description =
          "Port of conventional provider URLs http://HOST:PORT/v1/ads. Default: ${DEFAULT-VALUE}.")
  int providerPort;

  @Option(
      names = "--no-conventional",
      description = "Do not try http://HOST:PORT/v1/ads for hosts without a known provider.")
  boolean noConventional;

  @Option(
      names = "--bdii",
      paramLabel = "LDAP-URL",
      description =
          "Discover through an LDAP directory, e.g. ldap://bdii.example.org:2170/o=glue: one "
              + "subtree search under the base DN instead of asking each provider over HTTP. "
              + "Excludes --provider, --provider-port and --no-conventional.")
  String bdii;

  @Option(
      names = "--bdii-size-limit",
      paramLabel = "ENTRIES",
      defaultValue = "50000",
      description =
          "With --bdii: the most directory entries read; more is an error. Default: ${DEFAULT-VALUE}.")
  int bdiiSizeLimit;

  @Option(
      names = "--timeout",
      paramLabel = "SECONDS",
      defaultValue = "2",
      description =
          "The most discovery may take; silent providers are skipped. Default: ${DEFAULT-VALUE}.")
  double timeout;

  @Option(
      names = "--journal",
      paramLabel = "FILE",
      description =
          "This client's transfer journal (default: $BRAID_JOURNAL or $${XDG_DATA_HOME:-~/.local/share}/braid/journal.jsonl).")
  Path journal;

  @Option(names = "--no-journal", description = "Ignore this client's transfer history.")
  boolean noJournal;

  @Option(
      names = "--plan",
      description =
          "Also print the co-allocation plan: the replicas to use at once and each one's share.")
  boolean plan;

  @Option(
      names = "--client-capacity",
      paramLabel = "RATE",
      description =
          "This client's own access link (e.g. 1Gbit/s, 100MB/s): no forecast exceeds it, history measured while it was full counts as a lower bound, and the plan's rate is at most this. Default: unlimited.")
  String clientCapacity;

  @Option(
      names = "--json",
      description =
          "Print JSON: an array with url, matched, rank, predictedBandwidth, errorPct, ciPct, low, high, source, reason, discovery, forecastNote (with --plan: an object with ranking and plan).")
  boolean json;

  @Override
  public void run() {
    if (!(timeout > 0) || timeout > 3600) {
      throw new IllegalArgumentException("--timeout must be in (0, 3600] seconds: " + timeout);
    }
    Request request = request();
    Broker.Builder b =
        Broker.builder()
            .timeout(Duration.ofMillis(Math.max(1, (long) (timeout * 1000))))
            .providerPort(providerPort)
            .conventionalProviders(!noConventional)
            .journal(noJournal ? null : journal != null ? journal : Download.defaultJournal());
    if (clientCapacity != null) {
      try {
        b.clientCapacity(Units.rate(clientCapacity));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--client-capacity: " + e.getMessage(), e);
      }
    }
    if (bdii != null) {
      directory(b);
    }
    for (String p : providers) {
      int eq = p.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("--provider must be HOST=URL: " + p);
      }
      b.provider(p.substring(0, eq), providerUrl(p.substring(eq + 1)));
    }
    if (catalogProviders != null && bdii == null) {
      b.providers(catalogProviders);
    }
    PrintWriter out = spec.commandLine().getOut();
    try (Broker broker = b.build()) {
      if (bdii != null) {
        try {
          broker.refreshDirectory(); // fails fast; select() uses this read
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      List<RankedReplica> ranked;
      Plan p = null;
      if (plan) {
        p = broker.plan(request);
        ranked = p.ranking();
      } else {
        ranked = broker.select(request);
      }
      if (json) {
        out.println(json(ranked, p));
      } else {
        table(out, ranked, p);
      }
    }
    out.flush();
  }

  private java.util.Map<String, URI> catalogProviders;

  private void directory(Broker.Builder b) {
    if (!providers.isEmpty() || noConventional || providerPort != ProviderApi.DEFAULT_PORT) {
      throw new IllegalArgumentException(
          "--bdii reads every provider from the directory: drop --provider, --provider-port and"
              + " --no-conventional");
    }
    if (bdiiSizeLimit < 1) {
      throw new IllegalArgumentException("--bdii-size-limit must be at least 1: " + bdiiSizeLimit);
    }
    URI u;
    try {
      u = new URI(bdii);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("--bdii: bad URL '" + bdii + "': " + e.getReason(), e);
    }
    try {
      b.directory(u).directorySizeLimit(bdiiSizeLimit);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--bdii: " + e.getMessage(), e);
    }
  }

  private static URI providerUrl(String text) {
    try {
      return new URI(text);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("--provider: bad URL '" + text + "': " + e.getReason(), e);
    }
  }

  private Request request() {
    boolean fromCatalog = source.fromCatalog(urls);
    Request.Builder rb;
    try {
      if (!fromCatalog) {
        List<Replica> reps = new ArrayList<>();
        int i = 0;
        for (String u : urls) {
          reps.add(Replica.of(Catalogs.parseUrl(u, "argument " + (++i))));
        }
        rb = Request.builder(reps);
      } else {
        CatalogInput in = source.read();
        catalogProviders = in.providers();
        rb = Request.builder(in.file());
      }
    } catch (CatalogException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    if (size != null) {
      rb.size(SizeClasses.parseSize(size));
    }
    return rb.requirements(requirements).rank(rank).build();
  }

  private static void table(PrintWriter out, List<RankedReplica> ranked, Plan plan) {
    out.printf(
        Locale.ROOT,
        "%-4s %-50s %14s %7s %-16s %s%n",
        "#",
        "URL",
        "PREDICTED",
        "ERR%",
        "SOURCE",
        "RANK / REASON");
    int n = 0;
    for (RankedReplica r : ranked) {
      String pos = r.matched() ? String.valueOf(++n) : "-";
      String err =
          r.forecast().isAvailable() && r.forecast().scored() > 0
              ? String.format(Locale.ROOT, "%.1f", r.forecast().errorPct())
              : "-";
      String pred = r.forecast().isAvailable() ? rate(r.forecast().value()) : "-";
      String last =
          r.matched() ? String.format(Locale.ROOT, "%.6g", r.rank()) : "rejected: " + r.reason();
      out.printf(
          Locale.ROOT,
          "%-4s %-50s %14s %7s %-16s %s%n",
          pos,
          r.replica().uri(),
          pred,
          err,
          r.forecastSource(),
          last);
      if (r.discovery() != null) {
        out.printf(Locale.ROOT, "     (%s)%n", r.discovery());
      }
      if (r.forecastNote() != null) {
        out.printf(Locale.ROOT, "     (%s)%n", r.forecastNote());
      }
    }
    if (plan != null) {
      out.printf(
          Locale.ROOT,
          "plan: %d replica%s, %s of a %s bound%n",
          plan.shares().size(),
          plan.shares().size() == 1 ? "" : "s",
          rate(plan.rate()),
          rate(plan.bound()));
      for (Plan.Share s : plan.shares()) {
        out.printf(
            Locale.ROOT,
            "  %-50s %14s %6.1f%% %s%n",
            s.replica().uri(),
            rate(s.predictedRate()),
            100 * s.fraction(),
            s.bytes() < 0 ? "" : s.bytes() + " bytes");
      }
    }
  }

  static String rate(double bytesPerSecond) {
    return String.format(Locale.ROOT, "%.2f MB/s", bytesPerSecond / 1e6);
  }

  private static String json(List<RankedReplica> ranked, Plan plan) {
    ArrayNode a = Mappers.indented().createArrayNode();
    for (RankedReplica r : ranked) {
      ObjectNode o = a.addObject();
      o.put("url", r.replica().uri().toString());
      o.put("matched", r.matched());
      o.put("rank", r.rank());
      boolean has = r.forecast().isAvailable();
      boolean scored = has && r.forecast().scored() > 0;
      putOrNull(o, "predictedBandwidth", has, r.forecast().value());
      putOrNull(o, "errorPct", scored, r.forecast().errorPct());
      putOrNull(o, "ciPct", scored, r.forecast().ciPct());
      putOrNull(o, "low", scored, r.forecast().low());
      putOrNull(o, "high", scored, r.forecast().high());
      o.put("source", r.forecastSource());
      o.put("reason", r.reason());
      o.put("discovery", r.discovery());
      o.put("forecastNote", r.forecastNote());
      o.put("priority", r.replica().priority());
      o.put("location", r.replica().location());
    }
    try {
      if (plan == null) {
        return Mappers.indented().writeValueAsString(a);
      }
      ObjectNode root = Mappers.indented().createObjectNode();
      root.set("ranking", a);
      ObjectNode p = root.putObject("plan");
      p.put("size", plan.size());
      p.put("bound", plan.bound());
      p.put("rate", plan.rate());
      ArrayNode shares = p.putArray("shares");
      for (Plan.Share s : plan.shares()) {
        shares
            .addObject()
            .put("url", s.replica().uri().toString())
            .put("predictedRate", s.predictedRate())
            .put("fraction", s.fraction())
            .put("bytes", s.bytes());
      }
      return Mappers.indented().writeValueAsString(root);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void putOrNull(ObjectNode o, String k, boolean has, double v) {
    if (has) {
      o.put(k, v);
    } else {
      o.putNull(k);
    }
  }
}
