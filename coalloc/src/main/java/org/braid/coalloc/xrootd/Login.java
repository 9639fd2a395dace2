package org.braid.coalloc.xrootd;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.braid.coalloc.SourceException;
import org.braid.coalloc.xrootd.Frame.Header;
import org.braid.coalloc.xrootd.Frame.Response;

/**
 * Opening a connection: the handshake and kXR_protocol (switching to TLS for {@code roots://}),
 * then kXR_login and, when the server asks for it, kXR_auth by the {@code unix} or {@code host}
 * protocol (the only ones this client speaks).
 */
final class Login {
  private static final int HANDSHAKE_MAGIC = 2012;

  private Login() {}

  /**
   * The handshake, kXR_protocol and kXR_login, sent together (one round trip), then kXR_auth when
   * the server asks for it. For {@code roots://} the login waits for TLS, which starts once the
   * kXR_protocol answer offers it.
   */
  static void logIn(Connection c, Supplier<SSLContext> tls) throws IOException {
    ByteBuffer hs = ByteBuffer.allocate(20).putInt(0).putInt(0).putInt(0).putInt(4);
    hs.putInt(HANDSHAKE_MAGIC);
    ByteBuffer p = Frame.params().putInt(Xrd.CLIENT_PROTOCOL);
    if (c.target.tls()) {
      p.put((byte) (Xrd.FLAG_ABLE_TLS | Xrd.FLAG_WANT_TLS)).put((byte) Xrd.EXPECT_LOGIN);
    }
    byte[] protocol = Frame.request(Connection.STREAM, Xrd.PROTOCOL, p.array(), new byte[0]);
    Connection.Call login = loginCall();
    byte[] first = Connection.concat(hs.array(), protocol);
    c.send(c.target.tls() ? first : Connection.concat(first, login.bytes));
    Header h = Header.of(c.readN(Frame.RESPONSE_HEADER));
    if (h.status() != 0 || h.length() != 8) {
      throw c.protocolError("not an XRootD server (handshake answer " + h + ")");
    }
    int msgval = ByteBuffer.wrap(c.readN(8)).getInt(4);
    if (msgval != 0 && msgval != 1) {
      throw c.protocolError("not an XRootD server (handshake server type " + msgval + ")");
    }
    Response r = c.expect(Xrd.PROTOCOL, c.response(c.nextHeader()));
    if (r.body().length < 8) {
      throw c.protocolError("kXR_protocol answer of " + r.body().length + " bytes");
    }
    int flags = ByteBuffer.wrap(r.body()).getInt(4);
    if (c.target.tls()) {
      if ((flags & Xrd.GOTO_TLS) == 0) {
        throw new SourceException(
            c.replica,
            c.target.server() + " does not offer TLS (roots:// needs xrd.tls on the server)",
            false,
            null);
      }
      startTls(c, tls.get());
      c.callAll(login);
    } else {
      c.await(login);
    }
    loggedIn(c, c.expect(Xrd.LOGIN, login.answer()));
  }

  private static void startTls(Connection c, SSLContext ctx) throws IOException {
    SSLSocket ssl =
        (SSLSocket)
            ctx.getSocketFactory()
                .createSocket(c.socket, c.target.host(), c.target.port(), /* autoClose= */ true);
    SSLParameters params = ssl.getSSLParameters();
    params.setEndpointIdentificationAlgorithm("HTTPS");
    ssl.setSSLParameters(params);
    ssl.startHandshake();
    c.use(ssl);
  }

  private static Connection.Call loginCall() {
    ByteBuffer p = Frame.params().putInt((int) ProcessHandle.current().pid());
    p.put(username(System.getProperty("user.name", "braid")));
    p.put((byte) 0).put((byte) 0).put((byte) Xrd.CAPVER_5);
    return new Connection.Call(Connection.STREAM, Xrd.LOGIN, p.array(), new byte[0]);
  }

  private static void loggedIn(Connection c, Response r) throws IOException {
    if (r.body().length < 16) {
      throw c.protocolError(
          "kXR_login answer of " + r.body().length + " bytes, expected 16 or more");
    }
    String security = Frame.text(r.body(), 16);
    if (!security.isEmpty()) {
      authenticate(c, security);
    }
  }

  /** kXR_auth with the first protocol the server offers that this client speaks. */
  private static void authenticate(Connection c, String security) throws IOException {
    List<String> offered = protocols(security);
    String user = System.getProperty("user.name", "braid");
    byte[] cred;
    String type;
    if (offered.contains("unix")) {
      type = "unix";
      cred = ("unix\0" + user + "\0").getBytes(StandardCharsets.UTF_8);
    } else if (offered.contains("host")) {
      type = "host";
      cred = "host\0".getBytes(StandardCharsets.UTF_8);
    } else {
      throw new SourceException(
          c.replica,
          c.target.server()
              + " requires XRootD authentication by "
              + String.join(", ", offered)
              + "; braid speaks only unix and host (or none)",
          false,
          null);
    }
    ByteBuffer p = Frame.params().position(12).put(type.getBytes(StandardCharsets.US_ASCII));
    c.expect(Xrd.AUTH, c.call(Xrd.AUTH, p.array(), cred));
  }

  /** The protocol names of a login answer's security information ("&P=unix&P=gsi,v:1,..."). */
  static List<String> protocols(String security) {
    List<String> names = new ArrayList<>();
    for (String part : security.split("&")) {
      if (part.startsWith("P=")) {
        int comma = part.indexOf(',');
        names.add(part.substring(2, comma < 0 ? part.length() : comma));
      }
    }
    return names;
  }

  /** The login name field: 8 bytes, the user's name cut short and limited to safe characters. */
  static byte[] username(String user) {
    byte[] b = new byte[8];
    String safe = user.replaceAll("[^A-Za-z0-9_.-]", "");
    byte[] u = (safe.isEmpty() ? "braid" : safe).getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(u, 0, b, 0, Math.min(8, u.length));
    return b;
  }
}
