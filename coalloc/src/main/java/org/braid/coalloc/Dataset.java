package org.braid.coalloc;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Downloads a dataset, many files from many replicas, as one job: the files in the order given (a
 * batch plan's, e.g. the broker's Min-Min), many small files at once, each from the server that
 * would finish it first by the rates measured so far (the predicted ones until then), large files
 * co-allocated across their replicas as a {@link Download} does, connections reused across files on
 * each server, a slow straggler fetched again from another replica at the end. Every file is
 * verified (its checksums, always SHA-256) before it gets its final name under the output
 * directory; a file that cannot be fetched does not stop the others; running the same job again
 * skips the verified files and resumes partial ones. Build with {@link #builder()}:
 *
 * <pre>{@code
 * DatasetReport r = Dataset.builder()
 *     .files(List.of(DatasetFile.of("a/x.h5", 1_000_000, List.of(uriA, uriB))))
 *     .outputDirectory(Path.of("run42"))
 *     .build()
 *     .run();
 * }</pre>
 */
public final class Dataset {
  private final DatasetSpec spec;
  private final DatasetMilestones milestones;
  private volatile DatasetJob job;
  private volatile boolean cancelled;

  private Dataset(DatasetSpec spec, DatasetMilestones milestones) {
    this.spec = spec;
    this.milestones = milestones;
  }

  /** A builder with the defaults listed on its methods. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Runs the job. Files that fail are in the report ({@link DatasetReport#failures()}), each with
   * the reason; the job itself fails only when the output directory cannot be used.
   *
   * @return the report: every file, every server
   * @throws IOException if the output directory or its state file cannot be written
   */
  public DatasetReport run() throws IOException {
    DatasetJob j = new DatasetJob(spec, milestones);
    job = j;
    if (cancelled) {
      j.cancel("cancelled");
    }
    return j.run();
  }

  /**
   * Stops a running job from another thread (e.g. on Ctrl-C): files in flight keep what they have
   * for the next run, and {@link #run()} returns the report with {@link DatasetReport#stopped()}
   * set.
   */
  public void cancel() {
    cancelled = true;
    DatasetJob j = job;
    if (j != null) {
      j.cancel("cancelled");
    }
  }

  /**
   * Loads a dataset job's code (the job, its HTTP client, its report) on a background thread and
   * returns at once: call it before reading a long list of files, so that a cold JVM does that work
   * while the list is read instead of between the list and the first byte. Makes no connection and
   * touches no file; optional.
   */
  public static void warmUp(SourceOptions options) {
    DatasetWarmUp.start(Objects.requireNonNull(options, "options"));
  }

  /**
   * The concurrency a plan calls for: per server, enough files in flight to keep its predicted rate
   * busy through a 50 ms request latency at the dataset's median file size (2 to 16; a remote
   * server counts as at least 10 MB/s, a prediction raising it but never lowering it, and without a
   * prediction at least 4; a local path 4), summed over the servers, within 4..64 and at most the
   * number of files.
   */
  public static int defaultConcurrency(List<DatasetFile> files, List<PredictedRate> rates) {
    return DatasetJob.defaultConcurrency(files, rates);
  }

  /** Builds a {@link Dataset}. Not thread-safe. */
  public static final class Builder {
    private List<DatasetFile> files = List.of();
    private Path directory;
    private int concurrency;
    private List<PredictedRate> rates = List.of();
    private Scheme scheme = Scheme.adaptive();
    private SourceOptions options = SourceOptions.DEFAULT;
    private Path journal = Download.defaultJournal();
    private boolean resume = true;
    private double coallocateSeconds = 2;
    private Clock clock = Clock.systemUTC();
    private Ticker ticker = Ticker.system();
    private Consumer<DatasetProgress> progress;
    private Function<URI, RangeSource> sourceFactory;
    private int maxTries;
    private long lowSpeedLimit = Guards.DEFAULT.lowSpeedLimit();
    private Duration lowSpeedTime = Guards.DEFAULT.lowSpeedTime();
    private long maxBytesPerSecond;
    private Duration maxRetryAfter = Guards.DEFAULT.maxRetryAfter();
    private CompletionStage<DatasetOrder> arriving;
    private BiConsumer<String, Instant> milestones;
    private DatasetFeed feed;

    private Builder() {}

    /**
     * The files, in the order to fetch them (a batch plan's order), each with its sources, the
     * preferred first.
     *
     * @throws IllegalArgumentException if empty
     */
    public Builder files(List<DatasetFile> f) {
      Objects.requireNonNull(f, "files");
      if (f.isEmpty()) {
        throw new IllegalArgumentException("a dataset needs at least one file");
      }
      this.files = List.copyOf(f);
      return this;
    }

    /**
     * More files, read while the job runs (e.g. the rest of a long input list after the first
     * entries given to {@link #files}): the job starts on those of {@link #files} and takes each of
     * the feed's as it comes, on its own thread, so the first requests go out before the last file
     * is read. Each file's name is checked against those before it as it arrives: of two files that
     * cannot both be written (the same name, a name that is also another's directory or temporary
     * file) the later one fails. The concurrency chosen without {@link #concurrency} comes from the
     * files of {@link #files}. A feed that throws stops the job (the files verified so far stay
     * recorded for the next run) and {@link Dataset#run} throws its exception. Default: none.
     */
    public Builder moreFiles(DatasetFeed f) {
      this.feed = f;
      return this;
    }

    /** The output directory (created if missing). Required. */
    public Builder outputDirectory(Path dir) {
      this.directory = Objects.requireNonNull(dir, "outputDirectory");
      return this;
    }

    /**
     * Files fetched at once. Default: 0, chosen from the plan ({@link Dataset#defaultConcurrency}).
     *
     * @throws IllegalArgumentException if negative or above 1024
     */
    public Builder concurrency(int n) {
      if (n < 0 || n > 1024) {
        throw new IllegalArgumentException(
            "concurrency must be in 1..1024 (0: from the plan): " + n);
      }
      this.concurrency = n;
      return this;
    }

    /**
     * Predicted rates per server: each entry's URL names a server (scheme, host and port; for local
     * files, a replica's directory). Default: none (rates are learned as the job runs).
     */
    public Builder predictedRates(List<PredictedRate> r) {
      this.rates = List.copyOf(r);
      return this;
    }

    /** The scheme of co-allocated (large) files. Default: {@link Scheme#adaptive()}. */
    public Builder scheme(Scheme s) {
      this.scheme = Objects.requireNonNull(s, "scheme");
      return this;
    }

    /** Connection options. Default: {@link SourceOptions#DEFAULT}. */
    public Builder sourceOptions(SourceOptions o) {
      this.options = Objects.requireNonNull(o, "sourceOptions");
      return this;
    }

    /** The journal file, or null for none. Default: {@link Download#defaultJournal()}. */
    public Builder journal(Path j) {
      this.journal = j;
      return this;
    }

    /** Whether to skip files verified by an earlier run and resume partial ones. Default: true. */
    public Builder resume(boolean r) {
      this.resume = r;
      return this;
    }

    /**
     * A file is co-allocated across its replicas when the fastest server alone would take longer
     * than this. Default: 2 s.
     *
     * @throws IllegalArgumentException if not positive
     */
    public Builder coallocateAbove(double seconds) {
      if (!(seconds > 0)) {
        throw new IllegalArgumentException("co-allocation threshold must be positive: " + seconds);
      }
      this.coallocateSeconds = seconds;
      return this;
    }

    /** The clock for timestamps in reports and the journal. Default: system UTC. */
    public Builder clock(Clock c) {
      this.clock = Objects.requireNonNull(c, "clock");
      return this;
    }

    /** The time source for scheduling and durations (tests). Default: {@link System#nanoTime()}. */
    Builder ticker(Ticker t) {
      this.ticker = Objects.requireNonNull(t, "ticker");
      return this;
    }

    /** Receives a progress snapshot about five times a second. Default: none. */
    public Builder progress(Consumer<DatasetProgress> listener) {
      this.progress = listener;
      return this;
    }

    /**
     * Makes the range source for each URL, for protocols beyond the built-in ones. Default: the
     * built-in sources, with connections shared by the files of each server.
     */
    public Builder sourceFactory(Function<URI, RangeSource> f) {
      this.sourceFactory = f;
      return this;
    }

    /**
     * A batch plan still being made (e.g. the broker's, while it asks the information providers):
     * the job starts at once in the order of {@link #files} with the rates it measures, and when
     * the plan arrives the files not yet started are put in its order and the servers get its
     * predicted rates. A plan that fails is logged and ignored. Default: none.
     */
    public Builder planArriving(CompletionStage<DatasetOrder> plan) {
      this.arriving = plan;
      return this;
    }

    /**
     * Receives the job's milestones for timing measurements, each once with its wall-clock time,
     * from the thread that reaches it: {@code job} (run starts), {@code prepared} (files checked
     * against the disk; the first requests go out once 8 are, so it may come after them), {@code
     * request1} (the first request goes out), {@code byte1} (the first body byte), {@code files10}
     * to {@code files100} (each tenth of the files done), {@code plan} (a batch plan arriving late
     * applied). Default: none.
     */
    public Builder milestones(BiConsumer<String, Instant> listener) {
      this.milestones = listener;
      return this;
    }

    /**
     * How often a file is tried: a file whose replicas all failed transiently is tried again in up
     * to {@code tries} rounds over them, and a server failing {@code tries} requests in a row is
     * not used any more. Default: 0, the dataset's defaults (3 rounds per file, a server dropped
     * after 6 failures in a row; a dataset asks each server for many files).
     *
     * @throws IllegalArgumentException if not in [0, 100]
     */
    public Builder maxTries(int tries) {
      if (tries < 0 || tries > 100) {
        throw new IllegalArgumentException("max tries must be in [1, 100] (0: defaults): " + tries);
      }
      this.maxTries = tries;
      return this;
    }

    /**
     * The low-speed limit of each file's request, as curl's {@code --speed-limit}: a request that
     * receives fewer than {@code bytesPerSecond} on average over {@code time} is abandoned, a
     * transient failure of its replica (the file is then fetched from another). Co-allocated files
     * apply it to each of their requests. Default: 1024 bytes/s over 30 s.
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
     * The most bytes per second each file may receive (all requests of a co-allocated file
     * together): a limit per file, not for the job, so the job may receive up to the concurrency
     * times this. Default: 0, no limit.
     *
     * @throws IllegalArgumentException if negative
     */
    public Builder maxBytesPerSecond(long bytesPerSecond) {
      Guards.checkRate(bytesPerSecond);
      this.maxBytesPerSecond = bytesPerSecond;
      return this;
    }

    /**
     * The longest {@code Retry-After} honoured: a server asking for a longer pause is not used any
     * more in the job; a shorter one is left alone for that long. Default: 60 s.
     *
     * @throws IllegalArgumentException if negative
     */
    public Builder maxRetryAfter(Duration d) {
      Guards.checkRetryAfter(d);
      this.maxRetryAfter = d;
      return this;
    }

    /**
     * Builds the job: an immutable copy of the settings. Touches nothing on disk or the network.
     *
     * @throws IllegalStateException if files or the output directory are missing
     */
    public Dataset build() {
      if (files.isEmpty()) {
        throw new IllegalStateException("no files given");
      }
      if (directory == null) {
        throw new IllegalStateException("no output directory given");
      }
      int j = concurrency > 0 ? concurrency : DatasetJob.defaultConcurrency(files, rates);
      return new Dataset(
          new DatasetSpec(
              files,
              directory,
              j,
              concurrency == 0,
              rates,
              scheme,
              options,
              journal,
              resume,
              coallocateSeconds,
              clock,
              ticker,
              progress,
              sourceFactory,
              new Guards(
                  -1, maxTries, lowSpeedLimit, lowSpeedTime, maxBytesPerSecond, maxRetryAfter),
              arriving,
              feed),
          milestones == null ? DatasetMilestones.NONE : new DatasetMilestones(milestones, clock));
    }
  }
}
