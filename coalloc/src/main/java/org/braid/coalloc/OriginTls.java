package org.braid.coalloc;

import java.io.IOException;
import java.net.Socket;
import javax.net.ssl.SSLSocket;
import org.apache.hc.client5.http.ssl.TlsSocketStrategy;
import org.apache.hc.core5.http.protocol.HttpContext;

/**
 * Presents the client certificate to one origin only (the replica's host and port): a connection to
 * any other host, after a redirect say, is made without it.
 */
final class OriginTls implements TlsSocketStrategy {
  private final String host;
  private final int port;
  private final TlsSocketStrategy withCertificate;
  private final TlsSocketStrategy without;

  OriginTls(String host, int port, TlsSocketStrategy withCertificate, TlsSocketStrategy without) {
    this.host = host;
    this.port = port < 0 ? 443 : port;
    this.withCertificate = withCertificate;
    this.without = without;
  }

  boolean presentsTo(String target, int targetPort) {
    return host.equalsIgnoreCase(target) && port == (targetPort < 0 ? 443 : targetPort);
  }

  @Override
  public SSLSocket upgrade(
      Socket socket, String target, int targetPort, Object attachment, HttpContext context)
      throws IOException {
    TlsSocketStrategy s = presentsTo(target, targetPort) ? withCertificate : without;
    return s.upgrade(socket, target, targetPort, attachment, context);
  }
}
