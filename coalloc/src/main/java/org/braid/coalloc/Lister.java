package org.braid.coalloc;

import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.util.Locale;

/**
 * Lists a directory tree on one replica, recursively, within {@link ListLimits}: the files of a
 * dataset held under one directory. One implementation per protocol, beside its {@link
 * RangeSource}: HTTP (WebDAV {@code PROPFIND}, or nginx's {@code autoindex_format json}), GridFTP
 * ({@code MLSD}) and local directories. Every entry name is checked with {@link DatasetNames}; an
 * entry that breaks the rules is refused (listed in {@link Listing#refused()}), never followed.
 */
public interface Lister extends Closeable {

  /** The directory this lister lists. */
  URI root();

  /**
   * Lists every regular file below the root.
   *
   * @throws SourceException if the server fails, answers something that is not a listing, or the
   *     tree exceeds a limit (the message names the directory and the limit)
   * @throws IOException on other I/O failures
   */
  Listing list() throws IOException;

  /**
   * A lister for a directory URL: {@code http}, {@code https} (and {@code dav}, {@code davs}),
   * {@code gsiftp}, {@code ftp} and {@code file}.
   *
   * @throws IllegalArgumentException if the scheme is not supported
   */
  static Lister of(URI directory, SourceOptions options, ListLimits limits) {
    String scheme =
        directory.getScheme() == null ? "" : directory.getScheme().toLowerCase(Locale.ROOT);
    switch (scheme) {
      case "http":
      case "https":
      case "dav":
      case "davs":
        return new HttpLister(directory, options, limits);
      case "gsiftp":
      case "ftp":
        return new GridFtpLister(directory, options, limits);
      case "file":
        return new FileLister(directory, limits);
      default:
        throw new IllegalArgumentException(
            "cannot list '"
                + scheme
                + "' URLs: "
                + directory
                + " (use http, https, dav, davs, gsiftp, ftp or file)");
    }
  }
}
