package org.braid.provider;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.braid.infoprovider.logs.LogFormat;
import org.braid.infoprovider.wire.Endpoint;
import org.braid.infoprovider.wire.ProviderApi;

/**
 * The daemon's configuration, read from YAML (docs/provider.md has a commented sample). Every part
 * has a default except the logs.
 *
 * @param hostname host name published in ads and LDIF (default: this machine's name)
 * @param url the server's access URL, e.g. gsiftp://host:2811: the endpoint of each log that names
 *     none and whose format it fits ({@link #endpointOf}); default none
 * @param database SQLite file (default /var/lib/braid-provider/provider.db)
 * @param retention how long transfers and samples are kept (default 30d)
 * @param poll how often logs are read and statistics recomputed (default 10s)
 * @param http the HTTP server (default 127.0.0.1:8790)
 * @param logs the logs to read, at least one
 * @param probes the probes to run (default none)
 * @param volumes volumes whose free and total space is published (default none)
 */
public record ProviderConfig(
    String hostname,
    String url,
    Path database,
    Duration retention,
    Duration poll,
    Http http,
    List<Log> logs,
    Probes probes,
    List<Volume> volumes) {

  /**
   * A copy publishing another host name or server URL; null keeps this one's.
   *
   * @param hostname the host name to publish, or null
   * @param url the server URL to publish, or null
   */
  public ProviderConfig withPublished(String hostname, String url) {
    return new ProviderConfig(
        hostname == null ? this.hostname : hostname,
        url == null ? this.url : url,
        database,
        retention,
        poll,
        http,
        logs,
        probes,
        volumes);
  }

  /** Default HTTP port. */
  public static final int DEFAULT_PORT = ProviderApi.DEFAULT_PORT;

  /** Default probe interval: 5 minutes, as the NWS probes of paper 003. */
  public static final Duration DEFAULT_PROBE_INTERVAL = Duration.ofMinutes(5);

  /**
   * Applies defaults and checks the configuration.
   *
   * @throws IllegalArgumentException naming the bad setting
   */
  public ProviderConfig {
    hostname = hostname == null || hostname.isBlank() ? localHostName() : hostname;
    url = url == null ? "" : url;
    database = database == null ? Path.of("/var/lib/braid-provider/provider.db") : database;
    retention = positive("retention", retention, Duration.ofDays(30));
    poll = positive("poll", poll, Duration.ofSeconds(10));
    http = http == null ? new Http(null, null) : http;
    if (logs == null || logs.isEmpty()) {
      throw new ConfigException("logs", "config: logs: at least one log is needed");
    }
    logs = List.copyOf(logs);
    java.util.Set<Path> paths = new java.util.HashSet<>();
    for (Log l : logs) {
      if (!paths.add(l.path().toAbsolutePath().normalize())) {
        throw new ConfigException("logs", "config: logs: " + l.path() + " is listed twice");
      }
    }
    probes = probes == null ? new Probes(null, null, null) : probes;
    volumes = volumes == null ? List.of() : List.copyOf(volumes);
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (Volume v : volumes) {
      if (!seen.add(v.volume())) {
        throw new ConfigException("volumes", "config: volumes: " + v.volume() + " is listed twice");
      }
    }
  }

  /**
   * The endpoint a log's statistics are published for: its own {@code endpoint}; else the
   * configuration's {@code url} when that is an endpoint URL whose scheme fits the log's format
   * ({@link Log#fits}); else none (null): the log's statistics are host-level.
   */
  public Endpoint endpointOf(Log log) {
    if (log.endpoint() != null) {
      return Endpoint.parse(log.endpoint());
    }
    if (url.isEmpty()) {
      return null;
    }
    try {
      Endpoint e = Endpoint.parse(url);
      return Log.fits(log.format(), e.scheme()) ? e : null;
    } catch (IllegalArgumentException notAnEndpoint) {
      return null;
    }
  }

  /**
   * A volume whose space is published: the usable and total bytes of the file store holding {@code
   * dataDirectory} are read each time the statistics are published, as {@code AvailableSpace} and
   * {@code TotalSpace} in the volume's ads.
   *
   * @param volume the volume name as the ads show it (a log's {@code volume}, GridFTP's VOLUME)
   * @param dataDirectory a directory on the volume's file system; must exist
   */
  public record Volume(String volume, Path dataDirectory) {
    /**
     * Checks the volume is named and its directory exists.
     *
     * @throws IllegalArgumentException naming the key and the path
     */
    public Volume {
      if (volume == null || volume.isBlank()) {
        throw new ConfigException("volume", "config: volumes: a volume needs a name (volume)");
      }
      if (dataDirectory == null) {
        throw new ConfigException(
            "dataDirectory", "config: volumes: " + volume + " needs a dataDirectory");
      }
      if (!Files.isDirectory(dataDirectory)) {
        throw new ConfigException(
            "dataDirectory",
            "config: volumes: "
                + volume
                + ": dataDirectory "
                + dataDirectory
                + " is not an existing directory");
      }
    }
  }

  /**
   * The HTTP server.
   *
   * @param bind address to listen on (default 127.0.0.1: loopback only)
   * @param port port (default 8790; 0 picks a free one)
   */
  public record Http(String bind, Integer port) {
    /** Applies defaults and checks the port. */
    public Http {
      bind = bind == null || bind.isBlank() ? "127.0.0.1" : bind;
      port = port == null ? DEFAULT_PORT : port;
      if (port < 0 || port > 65_535) {
        throw new ConfigException("port", "config: http.port must be 0-65535: " + port);
      }
    }
  }

  /**
   * One log to read.
   *
   * @param path the live log file; rotated siblings (path.1, path.2.gz, path-DATE) are read too
   * @param format gridftp, nginx, apache or braid
   * @param volume the volume to file this log's transfers under (default: the volume the line
   *     names, GridFTP's VOLUME; "/" for the other formats)
   * @param endpoint the endpoint whose server writes this log, {@code SCHEME://HOST[:PORT][/PATH]}
   *     as replica URLs name it, e.g. {@code gsiftp://se.example.org:2811} (default: the
   *     configuration's {@code url} when its scheme fits the format, else none: host-level)
   */
  public record Log(Path path, LogFormat format, String volume, String endpoint) {
    /**
     * Checks the path and format are given and the endpoint, if any, is an endpoint URL whose
     * scheme fits the format.
     *
     * @throws IllegalArgumentException naming the log and the problem
     */
    public Log {
      if (path == null) {
        throw new ConfigException("path", "config: logs: a log needs a path");
      }
      if (format == null) {
        throw new ConfigException(
            "format", "config: logs: " + path + " needs a format (gridftp, nginx, apache, braid)");
      }
      if (volume != null && volume.isBlank()) {
        throw new ConfigException("volume", "config: logs: " + path + ": volume must not be blank");
      }
      if (endpoint != null) {
        Endpoint e;
        try {
          e = Endpoint.parse(endpoint);
        } catch (IllegalArgumentException bad) {
          throw new ConfigException("endpoint", "config: logs: " + path + ": " + bad.getMessage());
        }
        if (!fits(format, e.scheme())) {
          throw new ConfigException(
              "endpoint",
              "config: logs: "
                  + path
                  + ": endpoint "
                  + endpoint
                  + " does not fit format "
                  + format.name().toLowerCase(Locale.ROOT)
                  + " (its schemes: "
                  + String.join(", ", schemes(format))
                  + ")");
        }
      }
    }

    /** A log without an endpoint of its own. */
    public Log(Path path, LogFormat format, String volume) {
      this(path, format, volume, null);
    }

    /**
     * Whether a log of this format can be written by a server of this scheme: gridftp by gsiftp and
     * ftp doors, nginx and apache by http and https ones; a braid journal by any.
     */
    public static boolean fits(LogFormat format, String scheme) {
      List<String> s = schemes(format);
      return s.isEmpty() || s.contains(scheme.toLowerCase(Locale.ROOT));
    }

    private static List<String> schemes(LogFormat format) {
      switch (format) {
        case GRIDFTP:
          return List.of("gsiftp", "ftp");
        case NGINX:
        case APACHE:
          return List.of("http", "https");
        default:
          return List.of();
      }
    }
  }

  /**
   * The probes; each is off when not given.
   *
   * @param network network probes per peer
   * @param iperf import of iperf3 -J results
   * @param disk disk load from /proc/diskstats
   */
  public record Probes(Network network, Iperf iperf, Disk disk) {}

  /**
   * Network probes.
   *
   * @param interval how often (default 5m)
   * @param timeout connect and read timeout (default 10s)
   * @param peers the peers to probe
   */
  public record Network(Duration interval, Duration timeout, List<Peer> peers) {
    /** Applies defaults. */
    public Network {
      interval = positive("probes.network.interval", interval, DEFAULT_PROBE_INTERVAL);
      timeout = positive("probes.network.timeout", timeout, Duration.ofSeconds(10));
      peers = peers == null ? List.of() : List.copyOf(peers);
    }
  }

  /**
   * One peer to probe.
   *
   * @param address the peer's address as the logs show it (statistics are matched on it)
   * @param url an http:// URL of a file of at least 64 KiB served by the peer
   */
  public record Peer(String address, URI url) {
    /** Checks both are given. */
    public Peer {
      if (address == null || address.isBlank()) {
        throw new ConfigException(
            "address", "config: probes.network.peers: a peer needs an address");
      }
      if (url == null || !"http".equalsIgnoreCase(url.getScheme()) || url.getHost() == null) {
        throw new ConfigException(
            "url",
            "config: probes.network.peers: " + address + " needs an http://host/path url: " + url);
      }
    }
  }

  /**
   * iperf3 -J import.
   *
   * @param folder where result files are dropped
   * @param interval how often the folder is scanned (default 5m)
   */
  public record Iperf(Path folder, Duration interval) {
    /** Checks the folder is given. */
    public Iperf {
      if (folder == null) {
        throw new ConfigException("folder", "config: probes.iperf needs a folder");
      }
      interval = positive("probes.iperf.interval", interval, DEFAULT_PROBE_INTERVAL);
    }
  }

  /**
   * Disk load.
   *
   * @param devices device names as in /proc/diskstats (e.g. sda); the first is used in forecasts
   * @param interval how often (default 5m)
   * @param diskstats the statistics file (default /proc/diskstats)
   */
  public record Disk(List<String> devices, Duration interval, Path diskstats) {
    /** Applies defaults. */
    public Disk {
      if (devices == null || devices.isEmpty()) {
        throw new ConfigException("devices", "config: probes.disk needs at least one device");
      }
      devices = List.copyOf(devices);
      interval = positive("probes.disk.interval", interval, DEFAULT_PROBE_INTERVAL);
      diskstats = diskstats == null ? Path.of("/proc/diskstats") : diskstats;
    }
  }

  /**
   * Reads a YAML configuration file.
   *
   * @throws IllegalArgumentException naming the file, line and problem for a bad configuration, or
   *     when the file does not exist
   * @throws IOException if the file cannot be read
   */
  public static ProviderConfig load(Path file) throws IOException {
    return ConfigYaml.load(file);
  }

  /** Parses "300s", "5m", "2h", "30d", "500ms" or an ISO-8601 duration ("PT5M"). */
  public static Duration parseDuration(String s) {
    return ConfigYaml.parseDuration(s);
  }

  private static Duration positive(String what, Duration d, Duration dflt) {
    if (d == null) {
      return dflt;
    }
    if (d.isNegative() || d.isZero()) {
      throw new ConfigException(
          what.substring(what.lastIndexOf('.') + 1), "config: " + what + " must be positive: " + d);
    }
    return d;
  }

  private static String localHostName() {
    try {
      return InetAddress.getLocalHost().getCanonicalHostName();
    } catch (UnknownHostException e) {
      return "localhost";
    }
  }
}
