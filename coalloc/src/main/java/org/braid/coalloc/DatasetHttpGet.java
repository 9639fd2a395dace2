package org.braid.coalloc;

import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.channels.ReadableByteChannel;
import java.time.Duration;
import java.time.Instant;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ConnectionClosedException;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;

/**
 * One whole-file {@code GET} of a dataset file from an HTTP(S) or WebDAV replica, with no probe
 * before it: the answer's status line and headers say the size ({@code Content-Length}), validators
 * and published checksums ({@code Repr-Digest}, {@code Digest}), and its body is the file. Sent
 * over the server's shared keep-alive client ({@link SourcePool}), so a job of many small files
 * costs one request per file on connections reused across files. An answer without a {@code
 * Content-Length} is refused ({@link NoLengthException}): the caller falls back to the probe and a
 * range request. One use per instance; {@link #cancel} may be called from any thread.
 */
final class DatasetHttpGet {
  /** The answer had no usable Content-Length: fetch the file with a probe and a range instead. */
  static final class NoLengthException extends SourceException {
    NoLengthException(URI uri) {
      super(uri, "whole-file answer has no Content-Length", true, null);
    }
  }

  /**
   * A whole-file answer: what the replica says of its copy, and the body of exactly {@code
   * validators.size()} bytes (closing it early drops the connection; reading it to the end returns
   * the connection to the pool).
   */
  record Answer(Validators validators, ReadableByteChannel body) {}

  private final URI uri;
  private final SourceOptions options;
  private final CloseableHttpClient client;
  private final HttpGet get;

  DatasetHttpGet(CloseableHttpClient client, URI uri, SourceOptions options) {
    this.uri = uri;
    this.options = options;
    this.client = client;
    this.get = new HttpGet(HttpReplicaClient.httpTarget(uri));
    get.setHeader("Want-Repr-Digest", HttpDigests.WANT_REPR_DIGEST);
    get.setHeader("Want-Digest", HttpDigests.WANT_DIGEST);
  }

  /** Abandons the request (its connection is dropped). */
  void cancel() {
    get.cancel();
  }

  /**
   * Sends the request and checks the answer's head, waiting at most the connect timeout plus the
   * stall timeout for it however slowly the server sends it.
   *
   * @throws SourceException if the replica fails, answers with an error status (with its {@code
   *     Retry-After}), or gives no length ({@link NoLengthException})
   */
  Answer open() throws IOException {
    Duration limit = options.connectTimeout().plus(options.stallTimeout());
    ClassicHttpResponse r;
    try (Deadlines.Armed deadline = Deadlines.after(limit, get::cancel)) {
      try {
        r = client.executeOpen(null, get, null);
      } catch (IOException e) {
        if (deadline.expired() || e instanceof SocketTimeoutException) {
          throw new SourceException.StalledException(
              uri, "no response headers within " + limit.toSeconds() + " s", e);
        }
        throw new SourceException.ConnectionException(
            uri, "request failed: " + PlainErrors.of(e), e);
      }
      if (deadline.expired()) {
        closeQuietly(r);
        throw new SourceException.StalledException(
            uri, "no response headers within " + limit.toSeconds() + " s", null);
      }
    }
    try {
      return answer(r);
    } catch (IOException | RuntimeException e) {
      get.cancel();
      closeQuietly(r);
      throw e;
    }
  }

  private Answer answer(ClassicHttpResponse r) throws IOException {
    if (r.getCode() != 200) {
      throw new SourceException.HttpStatusException(
          uri,
          r.getCode(),
          r.getReasonPhrase(),
          RetryAfter.parse(header(r, "Retry-After"), Instant.now()));
    }
    long size = length(r);
    HttpEntity e = r.getEntity();
    if (size < 0 || (size > 0 && e == null)) {
      throw new NoLengthException(uri);
    }
    Validators v =
        new Validators(size, header(r, "ETag"), header(r, "Last-Modified"))
            .withChecksums(HttpDigests.parse(header(r, "Repr-Digest"), header(r, "Digest")));
    InputStream in = e == null ? InputStream.nullInputStream() : e.getContent();
    return new Answer(v, new Body(r, in, size));
  }

  private long length(ClassicHttpResponse r) {
    String cl = header(r, "Content-Length");
    if (cl == null || header(r, "Content-Encoding") != null) {
      return -1;
    }
    try {
      return Long.parseLong(cl.trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static String header(ClassicHttpResponse r, String name) {
    Header h = r.getFirstHeader(name);
    return h == null ? null : h.getValue();
  }

  private static void closeQuietly(ClassicHttpResponse r) {
    try {
      r.close();
    } catch (IOException e) {
      // the connection is dropped anyway
    }
  }

  /** The answer's body: exactly the declared length, then the connection goes back to the pool. */
  private final class Body extends ExactBody {
    private final ClassicHttpResponse response;
    private boolean open = true;

    Body(ClassicHttpResponse response, InputStream in, long length) {
      super(DatasetHttpGet.this.uri, in, length, options.stallTimeout(), "body", "connection");
      this.response = response;
    }

    @Override
    SourceException broken(IOException e) {
      return e instanceof ConnectionClosedException ? ended(e) : super.broken(e);
    }

    @Override
    void complete() throws IOException {
      expectEnd();
    }

    @Override
    public boolean isOpen() {
      return open;
    }

    @Override
    public void close() throws IOException {
      if (!open) {
        return;
      }
      open = false;
      if (read < length) {
        get.cancel(); // not read to its end: drop the connection rather than drain it
      }
      try {
        in.close();
      } catch (IOException e) {
        // the connection is dropped anyway
      }
      response.close();
    }
  }
}
