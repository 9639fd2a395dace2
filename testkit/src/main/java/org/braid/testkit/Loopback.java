package org.braid.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/** Ports on 127.0.0.1, the only address test servers listen on. */
public final class Loopback {

  private Loopback() {}

  /**
   * A port that was free on 127.0.0.1 a moment ago (the usual small race with other processes is
   * accepted: a server that loses it fails to start with its own message).
   */
  public static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port on 127.0.0.1", e);
    }
  }

  /** Whether something accepts connections on 127.0.0.1:{@code port} (200 ms connect timeout). */
  public static boolean accepts(int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
