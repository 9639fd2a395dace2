package org.braid.testkit;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A real OpenLDAP slapd on 127.0.0.1 with a throwaway configuration: a {@code slapd.conf} in its
 * directory that includes the schemas given (core and cosine always), one mdb database per suffix
 * (root DN {@code cn=admin,SUFFIX}, password {@value #PASSWORD}), each in its own directory, and
 * the server in the foreground ({@code -d 0}) until closed. {@link #ldapadd} and {@link
 * #ldapsearch} run OpenLDAP's own clients against it.
 *
 * <pre>{@code
 * try (SlapdServer ldap = SlapdServer.builder(dir).schema(SlapdServer.glue2Schema())
 *     .suffix("o=glue").start()) {
 *   ldap.ldapadd("o=glue", ldif, false);
 * }
 * }</pre>
 *
 * <p>Missing slapd, ldap-utils or the GLUE 2.0 schema: see {@link RealComponent} (Debian packages
 * {@code slapd}, {@code ldap-utils}, {@code glue-schema}).
 */
public final class SlapdServer implements AutoCloseable {

  /** The root DN password of every suffix. */
  public static final String PASSWORD = "secret";

  /** Where Debian puts the schemas (core, cosine, and glue-schema's GLUE20.schema). */
  static final Path SCHEMA_DIR = Path.of("/etc/ldap/schema");

  /** How long one ldapadd or ldapsearch may take. */
  private static final long CLIENT_TIMEOUT_SECONDS = 60;

  private final ServerProcess process;
  private final Path dir;
  private final int port;

  private SlapdServer(ServerProcess process, Path dir, int port) {
    this.process = process;
    this.dir = dir;
    this.port = port;
  }

  /**
   * A builder for a slapd whose configuration and databases go to {@code dir} (created if missing).
   */
  public static Builder builder(Path dir) {
    return new Builder(dir);
  }

  /** The slapd executable; missing, it ends the calling test (see {@link RealComponent}). */
  public static Path binary() {
    return RealComponent.executable("slapd", "slapd");
  }

  /**
   * The GLUE 2.0 schema of Debian's glue-schema package; missing, it ends the calling test (see
   * {@link RealComponent}).
   */
  public static Path glue2Schema() {
    Path p = SCHEMA_DIR.resolve("GLUE20.schema");
    if (!Files.isRegularFile(p)) {
      return RealComponent.unavailable(
          "the GLUE 2.0 LDAP schema (" + p + ") is not installed",
          "apt-get install glue-schema (or run .ci/install as root)");
    }
    return p;
  }

  /** The port slapd listens on (127.0.0.1). */
  public int port() {
    return port;
  }

  /** {@code ldap://127.0.0.1:PORT}. */
  public String url() {
    return "ldap://127.0.0.1:" + port;
  }

  /** The root DN of a suffix. */
  public static String rootDn(String suffix) {
    return "cn=admin," + suffix;
  }

  /**
   * What an OpenLDAP client program did.
   *
   * @param exit its exit code
   * @param output its standard output and error
   */
  public record Result(int exit, String output) {}

  /**
   * Adds the entries of an LDIF file with {@code ldapadd}, bound as the suffix's root DN.
   *
   * @param continueOnErrors {@code -c}: go on after an entry that fails (e.g. one that exists)
   */
  public Result ldapadd(String suffix, Path ldif, boolean continueOnErrors) {
    List<String> cmd = new ArrayList<>();
    cmd.add(RealComponent.executable("ldapadd", "ldap-utils").toString());
    if (continueOnErrors) {
      cmd.add("-c");
    }
    cmd.addAll(
        List.of("-x", "-H", url(), "-D", rootDn(suffix), "-w", PASSWORD, "-f", ldif.toString()));
    return run(cmd);
  }

  /**
   * Searches with {@code ldapsearch -LLL} (anonymous, subtree, no line wrapping).
   *
   * @return the entries as LDIF; fails the test if ldapsearch fails
   */
  public String ldapsearch(String base, String filter, String... attributes) {
    List<String> cmd = new ArrayList<>();
    cmd.add(RealComponent.executable("ldapsearch", "ldap-utils").toString());
    cmd.addAll(
        List.of("-x", "-LLL", "-o", "ldif-wrap=no", "-H", url(), "-b", base, "-s", "sub", filter));
    cmd.addAll(List.of(attributes));
    Result r = run(cmd);
    assertTrue(r.exit() == 0, "ldapsearch exited " + r.exit() + ": " + r.output());
    return r.output();
  }

  private Result run(List<String> cmd) {
    try {
      Path out = Files.createTempFile(dir, "client", ".out");
      Process p =
          new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
      if (!p.waitFor(CLIENT_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError(cmd + " did not finish in " + CLIENT_TIMEOUT_SECONDS + " s");
      }
      String text = Files.readString(out, StandardCharsets.UTF_8);
      Files.delete(out);
      return new Result(p.exitValue(), text);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + cmd, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted running " + cmd, e);
    }
  }

  @Override
  public void close() {
    process.close();
  }

  /** Options for a {@link SlapdServer}. */
  public static final class Builder {
    private final Path dir;
    private final Set<Path> schemas = new LinkedHashSet<>();
    private final List<String> suffixes = new ArrayList<>();

    private Builder(Path dir) {
      this.dir = Objects.requireNonNull(dir, "dir");
      schemas.add(SCHEMA_DIR.resolve("core.schema"));
      schemas.add(SCHEMA_DIR.resolve("cosine.schema"));
    }

    /** A schema file in slapd.conf form to include (after core and cosine). */
    public Builder schema(Path schemaFile) {
      schemas.add(Objects.requireNonNull(schemaFile, "schemaFile"));
      return this;
    }

    /** A database for this suffix, e.g. {@code o=glue}. */
    public Builder suffix(String suffix) {
      suffixes.add(Objects.requireNonNull(suffix, "suffix"));
      return this;
    }

    /** Writes the configuration, starts slapd and waits until it listens. */
    public SlapdServer start() throws IOException {
      Path slapd = binary();
      RealComponent.executable("ldapadd", "ldap-utils");
      Files.createDirectories(dir);
      StringBuilder conf = new StringBuilder();
      for (Path s : schemas) {
        if (!Files.isRegularFile(s)) {
          RealComponent.unavailable(
              "LDAP schema " + s + " is missing", "apt-get install slapd (or run .ci/install)");
        }
        conf.append("include ").append(s.toAbsolutePath()).append('\n');
      }
      conf.append("pidfile ").append(dir.resolve("slapd.pid").toAbsolutePath()).append('\n');
      if (Files.isDirectory(Path.of("/usr/lib/ldap"))) {
        conf.append("modulepath /usr/lib/ldap\nmoduleload back_mdb\n");
      }
      int i = 0;
      for (String suffix : suffixes) {
        Path db = Files.createDirectories(dir.resolve("db" + (i++)));
        conf.append("database mdb\n")
            .append("suffix \"")
            .append(suffix)
            .append("\"\nrootdn \"")
            .append(rootDn(suffix))
            .append("\"\nrootpw ")
            .append(PASSWORD)
            .append("\ndirectory ")
            .append(db.toAbsolutePath())
            .append("\nmaxsize 268435456\n");
      }
      Path confFile = dir.resolve("slapd.conf");
      Files.writeString(confFile, conf.toString());
      int port = Loopback.freePort();
      ServerProcess p =
          ServerProcess.start(
              "slapd",
              List.of(
                  slapd.toString(),
                  "-f",
                  confFile.toString(),
                  "-h",
                  "ldap://127.0.0.1:" + port + "/",
                  "-d",
                  "0"),
              dir.resolve("slapd.out"),
              List.of(port),
              confFile);
      return new SlapdServer(p, dir, port);
    }
  }
}
