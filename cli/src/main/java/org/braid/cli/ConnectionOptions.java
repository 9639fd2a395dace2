package org.braid.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.braid.coalloc.SourceOptions;
import picocli.CommandLine.Option;

/**
 * How {@code braid get} connects to the replicas: connections and GridFTP streams, pipelining,
 * timeouts and credentials (tokens, client certificates and proxies, trusted CAs). A picocli mixin.
 */
final class ConnectionOptions {

  @Option(
      names = "--connections-per-source",
      paramLabel = "N",
      description =
          "Connections to each replica, 1..16 (default: 1, or 2 to distant HTTP replicas with the"
              + " default scheme).")
  Integer connections;

  @Option(
      names = "--streams",
      defaultValue = "0",
      paramLabel = "N",
      description =
          "Parallel data connections per GridFTP range (MODE E), 1..16; 0 chooses them per server"
              + " from the journal's history and this download (default: ${DEFAULT-VALUE}).")
  int streams;

  @Option(
      names = "--tcp-buffer",
      defaultValue = "0",
      paramLabel = "BYTES",
      description =
          "TCP buffer for GridFTP data connections (SBUF), e.g. 4194304; 0 leaves it to the"
              + " systems' autotuning (default: ${DEFAULT-VALUE}).")
  int tcpBuffer;

  @Option(
      names = "--pipeline",
      description =
          "Send http:// range requests ahead of their answers on one kept connection per flow"
              + " (HTTP/1.1 pipelining), sized by rate x round-trip time; for distant replicas."
              + " No redirects on such connections; https and proxied replicas are not affected.")
  boolean pipeline;

  @Option(
      names = "--stall-timeout",
      defaultValue = "30",
      paramLabel = "SECONDS",
      description = "Abandon a request after this long without data (default: ${DEFAULT-VALUE}).")
  double stallTimeout;

  @Option(
      names = "--connect-timeout",
      defaultValue = "10",
      paramLabel = "SECONDS",
      description = "Time allowed to connect (default: ${DEFAULT-VALUE}).")
  double connectTimeout;

  @Option(
      names = "--bearer-token-file",
      paramLabel = "FILE",
      description =
          "Send the token in FILE as 'Authorization: Bearer' to https and davs replicas (or set"
              + " BRAID_BEARER_TOKEN); an http replica with it is refused. Default: WLCG discovery"
              + " (BEARER_TOKEN, BEARER_TOKEN_FILE, $XDG_RUNTIME_DIR/bt_u<uid>, /tmp/bt_u<uid>),"
              + " never sent over plain http.")
  Path tokenFile;

  @Option(
      names = "--allow-insecure-token",
      description =
          "Also send the --bearer-token-file or BRAID_BEARER_TOKEN token, or an -H"
              + " 'Authorization: ...' header, to plain http replicas, readable by anyone on the"
              + " path.")
  boolean allowInsecureToken;

  @Option(
      names = "--client-cert",
      paramLabel = "FILE",
      description =
          "Client certificate for https: PEM (a certificate or an RFC 3820 proxy, with its key)"
              + " or PKCS#12 (password from BRAID_CLIENT_CERT_PASSWORD). Default: X509_USER_PROXY"
              + " or /tmp/x509up_u<uid>.")
  Path clientCert;

  @Option(
      names = "--client-key",
      paramLabel = "FILE",
      description = "PEM key of --client-cert if that file has none (unencrypted).")
  Path clientKey;

  @Option(
      names = "--ca-bundle",
      paramLabel = "FILE|DIR",
      description =
          "Trust the CA certificates in this PEM file or directory of OpenSSL hashed names"
              + " instead of the system's. Default: the system's plus X509_CERT_DIR or"
              + " /etc/grid-security/certificates.")
  Path caBundle;

  /**
   * These options as a source-options builder (the caller adds the transfer options); {@code
   * authorizationHeader}: whether {@code -H} names an Authorization header, which {@code
   * --allow-insecure-token} also lets go over plain http.
   */
  SourceOptions.Builder builder(boolean authorizationHeader) throws IOException {
    SourceOptions.Builder so =
        SourceOptions.builder()
            .gridFtpStreams(streams)
            .tcpBuffer(tcpBuffer)
            .pipelining(pipeline)
            .stallTimeout(GetCommand.seconds(stallTimeout, "--stall-timeout"))
            .connectTimeout(GetCommand.seconds(connectTimeout, "--connect-timeout"));
    if (connections != null) {
      so.connectionsPerSource(connections);
    }
    String token = System.getenv("BRAID_BEARER_TOKEN");
    if (tokenFile != null) {
      token = Files.readString(tokenFile).trim();
    }
    if (token != null && !token.isBlank()) {
      so.bearerToken(token);
    } else if (allowInsecureToken && !authorizationHeader) {
      throw new IllegalArgumentException(
          "--allow-insecure-token needs --bearer-token-file, BRAID_BEARER_TOKEN or"
              + " -H 'Authorization: ...'");
    }
    so.allowInsecureToken(allowInsecureToken);
    if (clientCert != null) {
      so.clientCertificate(clientCert, System.getenv("BRAID_CLIENT_CERT_PASSWORD"));
    }
    if (clientKey != null) {
      if (clientCert == null) {
        throw new IllegalArgumentException("--client-key needs --client-cert");
      }
      so.clientKey(clientKey);
    }
    if (caBundle != null) {
      so.caBundle(caBundle);
    }
    return so;
  }
}
