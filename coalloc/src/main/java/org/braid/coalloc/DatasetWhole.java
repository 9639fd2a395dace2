package org.braid.coalloc;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;

/**
 * One replica's answer for a whole file of a dataset: what it says of its copy ({@link
 * #validators}) and the file's bytes ({@link #body}). From an HTTP(S) or WebDAV server, one plain
 * {@code GET} over the server's shared connections gives both (no probe); from any other source
 * (GridFTP, XRootD, a local file, or one an HTTP server answered without a length), the source's
 * probe, then one range of the whole file. Closing it closes the body and the source. Used by one
 * thread.
 */
final class DatasetWhole implements Closeable {
  private final Validators validators;
  private final ReadableByteChannel answered;
  private final RangeSource source;

  private DatasetWhole(Validators validators, ReadableByteChannel answered, RangeSource source) {
    this.validators = validators;
    this.answered = answered;
    this.source = source;
  }

  /**
   * Asks the replica for the file; the request can be abandoned meanwhile with the task's cancel.
   *
   * @throws IOException if the replica fails or answers wrongly
   */
  static DatasetWhole open(SourcePool pool, URI src, SourceOptions options, DatasetTask t)
      throws IOException {
    CloseableHttpClient client = pool.httpClient(src);
    if (client != null) {
      DatasetHttpGet get = new DatasetHttpGet(client, src, options);
      t.onCancel(get::cancel);
      try {
        DatasetHttpGet.Answer a = get.open();
        return new DatasetWhole(a.validators(), a.body(), null);
      } catch (DatasetHttpGet.NoLengthException e) {
        // a server that does not say the length (chunked): probe it and ask for the whole range
      } finally {
        t.onCancel(null);
      }
    }
    RangeSource rs = pool.open(src);
    try {
      return new DatasetWhole(rs.probe(), null, rs);
    } catch (IOException | RuntimeException e) {
      rs.close();
      throw e;
    }
  }

  /** What the replica says of its copy: size, validators, published checksums. */
  Validators validators() {
    return validators;
  }

  /**
   * The file's bytes: {@code size} (the validators' size) bytes, exactly.
   *
   * @throws IOException if the replica fails to start sending them
   */
  ReadableByteChannel body(long size) throws IOException {
    if (answered != null) {
      return answered;
    }
    return size == 0 ? Channels.newChannel(InputStream.nullInputStream()) : source.open(0, size);
  }

  @Override
  public void close() throws IOException {
    try {
      if (answered != null) {
        answered.close();
      }
    } finally {
      if (source != null) {
        source.close();
      }
    }
  }
}
