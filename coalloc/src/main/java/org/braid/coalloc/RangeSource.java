package org.braid.coalloc;

import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.nio.channels.ReadableByteChannel;
import org.braid.coalloc.xrootd.XrootdRangeSource;

/**
 * One replica that can deliver any byte range of the file. Implementations are thread-safe: a
 * download opens several ranges of the same source at once, one per connection.
 *
 * <p>Every channel returned by {@link #open} delivers exactly the requested bytes: it throws a
 * {@link SourceException} rather than return fewer or more, and it checks that the response belongs
 * to the version of the file given by {@link #probe}.
 */
public interface RangeSource extends Closeable {

  /** The replica's URL. */
  URI uri();

  /** The protocol name used in the journal: {@code http}, {@code https}, {@code file}, ... */
  default String protocol() {
    return uri().getScheme().toLowerCase(java.util.Locale.ROOT);
  }

  /**
   * Asks the replica for its size and validators. Later {@link #open} calls check their responses
   * against the answer.
   *
   * <p>A source whose protocol can tell the file's whole-file checksums (HTTP {@code Digest} and
   * {@code Repr-Digest}, GridFTP {@code CKSM}, an XRootD checksum query) puts them in {@link
   * Validators#checksums()}, normalised by {@link Checksum}: the download then drops replicas that
   * publish another value of the same algorithm (another version of the file) before fetching a
   * byte, and verifies the finished file against the agreed value; a checksum the user gave wins. A
   * source that cannot answer leaves the list empty; a failed checksum query is no reason to fail
   * the probe. A source that can only send the whole file from its first byte says so with {@link
   * Validators#ranges()} false: it then only ever gets {@link #open} calls for a range it reaches
   * by reading from byte 0 (and discarding the bytes before the range).
   *
   * @throws SourceException if the replica cannot be reached or does not support ranges
   * @throws IOException on other I/O failures
   */
  Validators probe() throws IOException;

  /**
   * What a first request brought: the replica's answer to the probe and, when it sent exactly the
   * bytes asked for, a channel delivering them.
   *
   * @param validators the replica's size and validators, as {@link #probe} gives them
   * @param data exactly the requested range, or null when the answer carries no usable data (the
   *     range reaches past the end of the file, or the replica ignores Range)
   */
  record First(Validators validators, ReadableByteChannel data) {}

  /**
   * The probe folded into the first data request: asks the replica for {@code [offset, offset +
   * length)} of a file whose size is not known yet, and answers as {@link #probe} does, with the
   * requested bytes when the replica sent exactly them (saving the probe's round trip). The checks
   * are {@link #probe}'s; later {@link #open} calls check their responses against this answer.
   * Sources that cannot do better probe and return no data. Default: {@code new First(probe(),
   * null)}.
   *
   * @throws IllegalArgumentException if offset is negative or length not positive
   * @throws SourceException if the replica cannot be reached or answers wrongly
   * @throws IOException on other I/O failures
   */
  default First openFirst(long offset, long length) throws IOException {
    if (offset < 0 || length <= 0) {
      throw new IllegalArgumentException("bad first range: " + offset + "+" + length);
    }
    return new First(probe(), null);
  }

  /**
   * Opens the byte range {@code [offset, offset + length)}. Closing the channel before its end
   * abandons the rest of the range.
   *
   * @throws IllegalArgumentException if offset or length is negative
   * @throws SourceException if the replica fails or answers wrongly
   * @throws IOException on other I/O failures
   */
  ReadableByteChannel open(long offset, long length) throws IOException;

  /**
   * Opens a source for the URL: {@code http}, {@code https}, {@code davs} and {@code dav} (WebDAV,
   * read as HTTPS and HTTP), {@code gsiftp}, {@code ftp}, {@code root}, {@code roots} and {@code
   * file} are supported.
   *
   * @throws IllegalArgumentException if the scheme is not supported
   */
  static RangeSource of(URI uri, SourceOptions options) {
    String scheme =
        uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(java.util.Locale.ROOT);
    switch (scheme) {
      case "http":
      case "https":
      case "dav":
      case "davs":
        return new HttpRangeSource(uri, options);
      case "file":
        return new FileRangeSource(uri);
      case "gsiftp":
      case "ftp":
        return new GridFtpRangeSource(uri, options);
      case "root":
      case "roots":
        return new XrootdRangeSource(uri, options, () -> GridAccess.sslContext(options));
      default:
        throw new IllegalArgumentException(
            "unsupported URL scheme '"
                + scheme
                + "' in "
                + uri
                + " (use http, https, davs, gsiftp, ftp, root, roots or file)");
    }
  }
}
