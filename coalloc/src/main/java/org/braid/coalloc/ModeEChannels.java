package org.braid.coalloc;

import java.io.Closeable;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The extended-block-mode (MODE E) data connections of one GridFTP control connection. The sender
 * opens data connections in MODE E, so for a retrieve the client listens ({@code PORT}) and the
 * server connects, as many times as the parallelism asks; after each transfer the connections end
 * with EOD but stay open, and the next transfer reuses them ("125 reusing existing data
 * connection"). They are kept here between transfers, with the listener (the server may open more
 * when the parallelism grows) and the reassembly window. Used by one thread at a time.
 */
final class ModeEChannels implements Closeable {
  /**
   * The smallest reassembly window: out-of-order blocks wait in it (256 KiB blocks, 16 streams).
   */
  static final int MIN_WINDOW = 4 << 20;

  final ServerSocketChannel listener;

  /** The server's address: data connections from anywhere else are refused. */
  final InetAddress server;

  final List<SocketChannel> connections = new ArrayList<>();

  /** Set-up commands sent whose replies are still to be read, in order. */
  final Deque<String> unconfirmed = new ArrayDeque<>();

  /** The parallelism last set with {@code OPTS RETR}, 0 before. */
  int parallelism;

  /** The window ring; grown (never shrunk) to the largest a transfer needed. */
  byte[] window = new byte[0];

  private ModeEChannels(ServerSocketChannel listener, InetAddress server) {
    this.listener = listener;
    this.server = server;
  }

  /**
   * Listens on the control connection's local address (any port), with the receive buffer the data
   * connections inherit when {@code buffer} is positive, for data connections from {@code server}.
   */
  static ModeEChannels listen(InetAddress local, InetAddress server, int buffer)
      throws IOException {
    ServerSocketChannel l = ServerSocketChannel.open();
    try {
      if (buffer > 0) {
        l.setOption(StandardSocketOptions.SO_RCVBUF, buffer);
      }
      l.bind(new InetSocketAddress(local, 0), 64);
      l.configureBlocking(false);
      return new ModeEChannels(l, server);
    } catch (IOException e) {
      l.close();
      throw e;
    }
  }

  /** The {@code PORT} (IPv4) or {@code EPRT} (IPv6) command naming the listener. */
  String portCommand() throws IOException {
    InetSocketAddress a = (InetSocketAddress) listener.getLocalAddress();
    int p = a.getPort();
    if (a.getAddress() instanceof Inet4Address) {
      byte[] b = a.getAddress().getAddress();
      return "PORT "
          + (b[0] & 0xff)
          + ","
          + (b[1] & 0xff)
          + ","
          + (b[2] & 0xff)
          + ","
          + (b[3] & 0xff)
          + ","
          + (p >> 8)
          + ","
          + (p & 0xff);
    }
    return "EPRT |2|" + a.getAddress().getHostAddress() + "|" + p + "|";
  }

  /** Closes the data connections (the server sets up new ones after another {@code PORT}). */
  void closeConnections() {
    for (SocketChannel c : connections) {
      closeQuietly(c);
    }
    connections.clear();
  }

  /** A window of at least {@code size} bytes. */
  byte[] window(int size) {
    if (window.length < size) {
      window = new byte[size];
    }
    return window;
  }

  @Override
  public void close() {
    closeConnections();
    closeQuietly(listener);
  }

  static void closeQuietly(Closeable c) {
    try {
      c.close();
    } catch (IOException e) {
      // dropping it anyway
    }
  }
}
