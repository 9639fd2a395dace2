package org.braid.coalloc;

import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Everything a {@link Download} was built with, copied at {@link Download.Builder#build()} so that
 * the download never changes when its builder does.
 *
 * @param sources the replicas to use, best first, at most the builder's maximum
 * @param output the final file
 * @param scheme the co-allocation scheme
 * @param rates predicted rates, for some or all sources
 * @param options connection options
 * @param checksums whole-file digests the result must match
 * @param pieces piece digests, or null
 * @param journal the journal file, or null
 * @param resume whether to resume from a matching control file
 * @param clock wall-clock time for timestamps
 * @param ticker the time source for scheduling and durations
 * @param progress the progress listener, or null
 * @param sourceFactory makes the range source for each URL, or null for {@link RangeSource#of}
 * @param guards the limits kept whatever the replicas do
 */
record DownloadSpec(
    List<URI> sources,
    Path output,
    Scheme scheme,
    List<PredictedRate> rates,
    SourceOptions options,
    List<Checksum> checksums,
    PieceHashes pieces,
    Path journal,
    boolean resume,
    Clock clock,
    Ticker ticker,
    Consumer<Progress> progress,
    Function<URI, RangeSource> sourceFactory,
    Guards guards) {

  /** Copies the lists. */
  DownloadSpec {
    sources = List.copyOf(sources);
    rates = List.copyOf(rates);
    checksums = List.copyOf(checksums);
  }

  /** The predicted rate of a source in bytes per second, or 0 when none was given. */
  double rate(URI u) {
    for (PredictedRate r : rates) {
      if (r.uri().equals(u)) {
        return r.bytesPerSecond();
      }
    }
    return 0;
  }

  /** The source for a URL: from the factory if one was given, else a built-in one. */
  RangeSource open(URI u) {
    return sourceFactory != null ? sourceFactory.apply(u) : RangeSource.of(u, options);
  }
}
