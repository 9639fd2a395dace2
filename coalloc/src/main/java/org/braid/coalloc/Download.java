package org.braid.coalloc;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Downloads one file from several replicas at once: the module's entry point. Build with {@link
 * #builder()}, then {@link #run()}:
 *
 * <pre>{@code
 * DownloadReport r = Download.builder()
 *     .sources(List.of(URI.create("http://a/f"), URI.create("http://b/f")))
 *     .output(Path.of("f"))
 *     .build()
 *     .run();
 * }</pre>
 *
 * <p>The file is written to {@code OUT.part} and renamed to {@code OUT} only after every byte is in
 * and the digests are checked. A control file {@code OUT.braid-ctl} records the finished ranges, so
 * running the same download again after a crash fetches only what is missing. Memory use does not
 * depend on the file size (one 64 KiB buffer per connection).
 */
public final class Download {
  private final DownloadSpec spec;
  private volatile Engine engine;
  private volatile boolean cancelled;

  private Download(DownloadSpec spec) {
    this.spec = spec;
  }

  /** What this download was built with. */
  DownloadSpec spec() {
    return spec;
  }

  /** A builder with the defaults listed on its methods. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Runs the download.
   *
   * @return the report of the verified download
   * @throws DownloadException if it cannot be completed and verified
   * @throws IOException if the output cannot be written
   */
  public DownloadReport run() throws IOException {
    Engine e = new Engine(spec);
    engine = e;
    if (cancelled) {
      e.cancel();
    }
    return e.run();
  }

  /**
   * Stops a running download from another thread (e.g. on Ctrl-C): the finished ranges are saved in
   * the control file and {@link #run()} throws a {@link DownloadException}.
   */
  public void cancel() {
    cancelled = true;
    Engine e = engine;
    if (e != null) {
      e.cancel();
    }
  }

  /** The default journal path: {@code $BRAID_JOURNAL} or the XDG data directory. */
  public static Path defaultJournal() {
    return Journal.defaultPath(System.getenv(), System.getProperty("user.home"));
  }

  /** Builds a {@link Download}. Not thread-safe. */
  public static final class Builder {
    List<URI> sources = List.of();
    Path output;
    Scheme scheme = Scheme.adaptive();
    List<PredictedRate> rates = List.of();
    int maxSources = 8;
    SourceOptions options = SourceOptions.DEFAULT;
    List<Checksum> checksums = List.of();
    PieceHashes pieces;
    Path journal = defaultJournal();
    boolean resume = true;
    Clock clock = Clock.systemUTC();
    Ticker ticker = Ticker.system();
    Consumer<Progress> progress;
    Function<URI, RangeSource> sourceFactory;
    long expectedSize = -1;
    int maxTries = Guards.DEFAULT.maxTries();
    long lowSpeedLimit = Guards.DEFAULT.lowSpeedLimit();
    Duration lowSpeedTime = Guards.DEFAULT.lowSpeedTime();
    long maxBytesPerSecond;
    Duration maxRetryAfter = Guards.DEFAULT.maxRetryAfter();

    private Builder() {}

    /**
     * The replicas' URLs, best first when their order matters (the single scheme and ties).
     *
     * @throws IllegalArgumentException if empty or containing duplicates
     */
    public Builder sources(List<URI> uris) {
      Objects.requireNonNull(uris, "sources");
      if (uris.isEmpty()) {
        throw new IllegalArgumentException("at least one source URL is needed");
      }
      if (new LinkedHashSet<>(uris).size() != uris.size()) {
        throw new IllegalArgumentException("a source URL is listed twice: " + uris);
      }
      this.sources = List.copyOf(uris);
      return this;
    }

    /** The output file. Required. */
    public Builder output(Path out) {
      this.output = Objects.requireNonNull(out, "output");
      return this;
    }

    /** The co-allocation scheme. Default: {@link Scheme#adaptive()}. */
    public Builder scheme(Scheme s) {
      this.scheme = Objects.requireNonNull(s, "scheme");
      return this;
    }

    /**
     * Predicted rates from the broker, for some or all sources. Default: none (the adaptive scheme
     * then learns the rates; history-based needs them).
     */
    public Builder predictedRates(List<PredictedRate> r) {
      this.rates = List.copyOf(r);
      return this;
    }

    /**
     * Use at most this many sources (the fastest predicted, else the first listed). Default: 8.
     *
     * @throws IllegalArgumentException if not positive
     */
    public Builder maxSources(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("max sources must be positive: " + n);
      }
      this.maxSources = n;
      return this;
    }

    /** Connection options. Default: {@link SourceOptions#DEFAULT}. */
    public Builder sourceOptions(SourceOptions o) {
      this.options = Objects.requireNonNull(o, "sourceOptions");
      return this;
    }

    /** Whole-file digests the result must match. Default: none (SHA-256 is still computed). */
    public Builder checksums(List<Checksum> c) {
      this.checksums = List.copyOf(c);
      return this;
    }

    /**
     * Piece digests (e.g. from a Metalink {@code <pieces>} element), or null for none. Each piece
     * is read back from the part file and checked as soon as all its bytes are written: a piece
     * that does not match goes back to the pool to be fetched again, preferably from another
     * replica, and every replica that wrote bytes of it has a failure counted (backs off; dropped
     * after 3 bad pieces). The file is renamed only once every piece matched. On resume, only whole
     * pieces that match again are kept. The number of digests must fit the file size the replicas
     * report, else {@link #run()} fails. Default: none.
     */
    public Builder pieces(PieceHashes p) {
      this.pieces = p;
      return this;
    }

    /** The journal file, or null for none. Default: {@link Download#defaultJournal()}. */
    public Builder journal(Path j) {
      this.journal = j;
      return this;
    }

    /** Whether to resume from a matching control file. Default: true. */
    public Builder resume(boolean r) {
      this.resume = r;
      return this;
    }

    /** The clock for timestamps in reports and the journal. Default: system UTC. */
    public Builder clock(Clock c) {
      this.clock = Objects.requireNonNull(c, "clock");
      return this;
    }

    /**
     * The time source for scheduling, events and durations (for tests and simulations). Default:
     * {@link System#nanoTime()}.
     */
    Builder ticker(Ticker t) {
      this.ticker = Objects.requireNonNull(t, "ticker");
      return this;
    }

    /** Receives a progress snapshot about five times a second. Default: none. */
    public Builder progress(Consumer<Progress> listener) {
      this.progress = listener;
      return this;
    }

    /**
     * Makes the range source for each URL, for protocols beyond the built-in ones. Default: {@link
     * RangeSource#of}.
     */
    public Builder sourceFactory(Function<URI, RangeSource> f) {
      this.sourceFactory = f;
      return this;
    }

    /**
     * The size the file must have, as a catalog or Metalink declares it: a replica that reports
     * another size is not used, and if none has it the download fails before fetching anything
     * ({@link DownloadException.Kind#VERIFICATION} when every replica answered). Default: -1, none
     * (the size most replicas report).
     *
     * @throws IllegalArgumentException if below -1
     */
    public Builder expectedSize(long bytes) {
      if (bytes < -1) {
        throw new IllegalArgumentException("expected size must be -1 (none) or more: " + bytes);
      }
      this.expectedSize = bytes;
      return this;
    }

    /**
     * Failed requests in a row after which a replica is dropped, and the most probe attempts per
     * replica (a probe is asked again only when the server sends {@code Retry-After}). Default: 4.
     *
     * @throws IllegalArgumentException if not in [1, 100]
     */
    public Builder maxTries(int tries) {
      if (tries < 1 || tries > 100) {
        throw new IllegalArgumentException("max tries must be in [1, 100]: " + tries);
      }
      this.maxTries = tries;
      return this;
    }

    /**
     * The low-speed limit, as curl's {@code --speed-limit} and {@code --speed-time}: a request that
     * receives on average fewer than {@code bytesPerSecond} over {@code time} is abandoned, a
     * failure of its replica (which is dropped after {@link #maxTries}). Default: 1024 bytes/s over
     * 30 s; 0 bytes/s turns it off.
     *
     * @throws IllegalArgumentException if the rate is negative or the time not positive
     */
    public Builder lowSpeedLimit(long bytesPerSecond, Duration time) {
      Guards.checkLowSpeed(bytesPerSecond, time);
      this.lowSpeedLimit = bytesPerSecond;
      this.lowSpeedTime = time;
      return this;
    }

    /**
     * The most all connections together receive per second, as curl's {@code --limit-rate}.
     * Default: 0, no limit.
     *
     * @throws IllegalArgumentException if negative
     */
    public Builder maxBytesPerSecond(long bytesPerSecond) {
      Guards.checkRate(bytesPerSecond);
      this.maxBytesPerSecond = bytesPerSecond;
      return this;
    }

    /**
     * The longest {@code Retry-After} waited for: a replica answering 503 or 429 with a longer one
     * is dropped, a shorter one is waited for before the replica is asked again. Default: 60 s.
     *
     * @throws IllegalArgumentException if negative
     */
    public Builder maxRetryAfter(Duration d) {
      Guards.checkRetryAfter(d);
      this.maxRetryAfter = d;
      return this;
    }

    /**
     * Builds the download: an immutable copy of the settings, which later changes to this builder
     * do not affect. Touches nothing on disk or on the network.
     *
     * @throws IllegalStateException if sources or output are missing, or the scheme lacks what it
     *     needs (the history-based scheme a predicted rate for every source it would use)
     */
    public Download build() {
      if (sources.isEmpty()) {
        throw new IllegalStateException("no sources given");
      }
      if (output == null) {
        throw new IllegalStateException("no output file given");
      }
      List<URI> used = ordered();
      String unmet = ((BlockPolicy.Spec) scheme).unmet(used, this::rate);
      if (unmet != null) {
        throw new IllegalStateException(unmet);
      }
      return new Download(
          new DownloadSpec(
              used,
              output,
              scheme,
              rates,
              options,
              checksums,
              pieces,
              journal,
              resume,
              clock,
              ticker,
              progress,
              sourceFactory,
              new Guards(
                  expectedSize,
                  maxTries,
                  lowSpeedLimit,
                  lowSpeedTime,
                  maxBytesPerSecond,
                  maxRetryAfter)));
    }

    private List<URI> ordered() {
      List<URI> list = new ArrayList<>(sources);
      if (!rates.isEmpty()) {
        list.sort(
            (x, y) -> Double.compare(rate(y), rate(x))); // stable: equal rates keep their order
      }
      return list.subList(0, Math.min(maxSources, list.size()));
    }

    private double rate(URI u) {
      for (PredictedRate r : rates) {
        if (r.uri().equals(u)) {
          return r.bytesPerSecond();
        }
      }
      return 0;
    }
  }
}
