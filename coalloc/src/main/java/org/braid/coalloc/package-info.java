/**
 * The co-allocating downloader: one file from several replicas at once (paper 003, section 4).
 *
 * <p>The entry point is {@link org.braid.coalloc.Download#builder()}; it returns a {@link
 * org.braid.coalloc.DownloadReport}. Replicas are read through {@link
 * org.braid.coalloc.RangeSource} (HTTP(S), GridFTP/FTP, local files), divided by a {@link
 * org.braid.coalloc.Scheme}, written to a preallocated part file with positional writes, verified,
 * and renamed. {@link org.braid.coalloc.Reports} renders reports, traces and timelines. Everything
 * else is package-private.
 *
 * <p>Inside, {@code Engine} runs a download in steps: {@code Prober} asks the replicas; a {@code
 * BlockScheduler} divides the file, coordinating a {@code RangePool}, the {@code Flows}, a {@code
 * PieceTracker}, {@code ReplicaHealth}, an {@code Assigner} (with the {@code EndGame}) and an
 * {@code EventLog}, while the scheme's {@code BlockPolicy} sees a {@code PolicyView}; a {@code
 * Fetcher} thread per flow, written against {@code Leases} and a {@code Sink}, reads any {@code
 * RangeSource}; the {@code Supervisor} verifies pieces ({@code PieceVerifier}), hashes,
 * checkpoints, feeds the journal and reports progress; {@code ReportBuilder} makes the report.
 * Every duration comes from one injected {@code Ticker}; {@code Download.Builder.build()} freezes
 * the settings in a {@code DownloadSpec}.
 */
package org.braid.coalloc;
