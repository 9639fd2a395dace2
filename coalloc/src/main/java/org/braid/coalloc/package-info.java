/**
 * The co-allocating downloader: one file from several replicas at once (paper 003, section 4).
 *
 * <p>The entry point is {@link org.braid.coalloc.Download#builder()}; it returns a {@link
 * org.braid.coalloc.DownloadReport}. Replicas are read through {@link
 * org.braid.coalloc.RangeSource} (HTTP(S), GridFTP/FTP, local files), divided by a {@link
 * org.braid.coalloc.Scheme}, written to a preallocated part file with positional writes, verified,
 * and renamed. {@link org.braid.coalloc.Reports} renders reports, traces and timelines. Everything
 * else is package-private.
 */
package org.braid.coalloc;
