package org.braid.coalloc;

import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.Locale;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import org.apache.hc.client5.http.impl.classic.RequestFailedException;
import org.apache.hc.core5.http.ConnectionClosedException;
import org.apache.hc.core5.http.MalformedChunkCodingException;
import org.apache.hc.core5.http.MessageConstraintException;
import org.apache.hc.core5.http.NoHttpResponseException;
import org.apache.hc.core5.http.ProtocolException;

/**
 * Says what an I/O failure means in plain words, without Java class names: "connection refused",
 * "unknown host a.example.org", "TLS handshake failed: ...". For the messages of {@link
 * SourceException}s, which reach the user as they are.
 */
final class PlainErrors {
  private PlainErrors() {}

  /** The failure in plain words, one line. */
  static String of(IOException e) {
    String m = innermostMessage(e);
    if (e instanceof UnknownHostException) {
      return "unknown host " + (e.getMessage() == null ? "" : e.getMessage());
    }
    if (e instanceof NoRouteToHostException) {
      return "no route to host";
    }
    if (e instanceof ConnectException) {
      return m == null ? "cannot connect" : "cannot connect: " + lower(m);
    }
    if (e instanceof SocketTimeoutException) {
      return "timed out" + (m == null ? "" : " (" + lower(m) + ")");
    }
    if (e instanceof SSLHandshakeException) {
      return "TLS handshake failed" + (m == null ? "" : ": " + m);
    }
    if (e instanceof SSLException) {
      return "TLS error" + (m == null ? "" : ": " + m);
    }
    if (e instanceof NoHttpResponseException) {
      return "the server closed the connection without answering";
    }
    if (e instanceof ConnectionClosedException) {
      return "the server closed the connection" + (m == null ? "" : " (" + lower(m) + ")");
    }
    if (e.getCause() instanceof ProtocolException
        || e instanceof MessageConstraintException
        || e instanceof MalformedChunkCodingException) {
      return "malformed HTTP answer" + (m == null ? "" : ": " + m);
    }
    if (e instanceof SocketException) {
      return m == null ? "connection failed" : lower(m);
    }
    if (e instanceof RequestFailedException) {
      return "request aborted";
    }
    return m == null ? "input/output error" : m;
  }

  private static String innermostMessage(Throwable t) {
    String m = null;
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c.getMessage() != null && !c.getMessage().isBlank()) {
        m = c.getMessage();
      }
    }
    return m == null ? null : m.replace('\n', ' ').replace('\r', ' ');
  }

  private static String lower(String m) {
    return m.isEmpty() ? m : m.substring(0, 1).toLowerCase(Locale.ROOT) + m.substring(1);
  }
}
