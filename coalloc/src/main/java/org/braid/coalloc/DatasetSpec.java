package org.braid.coalloc;

import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Everything a {@link Dataset} was built with, copied at {@link Dataset.Builder#build()}.
 *
 * @param files the files in the plan's order
 * @param directory the output directory
 * @param concurrency files fetched at once (-j), or from the plan at first when {@code
 *     autoConcurrency}
 * @param autoConcurrency whether the concurrency was chosen from the plan (and is chosen again when
 *     a plan arrives late)
 * @param rates predicted rates per server
 * @param scheme the scheme of co-allocated files
 * @param options connection options
 * @param journal the journal file, or null
 * @param resume whether to skip verified files and resume partial ones
 * @param coallocateSeconds a file is co-allocated when one server alone would take longer
 * @param clock wall-clock time
 * @param ticker the time source for scheduling and durations
 * @param progress the progress listener, or null
 * @param sourceFactory makes the range source for each URL, or null for the built-in ones
 * @param guards the per-file guards: low-speed limit and rate limit of each file, the longest
 *     {@code Retry-After} honoured; {@link Guards#maxTries()} 0 for the dataset's defaults (see
 *     {@link Dataset.Builder#maxTries})
 * @param arriving a batch plan still being made, applied when it arrives, or null
 * @param feed more files, read while the job runs and appended to {@code files}, or null
 */
record DatasetSpec(
    List<DatasetFile> files,
    Path directory,
    int concurrency,
    boolean autoConcurrency,
    List<PredictedRate> rates,
    Scheme scheme,
    SourceOptions options,
    Path journal,
    boolean resume,
    double coallocateSeconds,
    Clock clock,
    Ticker ticker,
    Consumer<DatasetProgress> progress,
    Function<URI, RangeSource> sourceFactory,
    Guards guards,
    CompletionStage<DatasetOrder> arriving,
    DatasetFeed feed) {

  DatasetSpec {
    files = DatasetFileList.of(files);
    rates = List.copyOf(rates);
  }

  /** The files as the list a {@link #feed} appends to. */
  DatasetFileList fileList() {
    return (DatasetFileList) files;
  }
}
