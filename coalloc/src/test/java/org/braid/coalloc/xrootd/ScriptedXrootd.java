package org.braid.coalloc.xrootd;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A scripted XRootD peer on 127.0.0.1 for the protocol cases a real xrootd does not produce on
 * demand (kXR_wait, kXR_waitresp, oversized or malformed answers, endless redirects, an
 * authentication protocol braid does not speak). It answers like a data server serving {@link
 * #data} unless {@link #script} answers a request differently. Each connection runs on its own
 * thread; requests are recorded in {@link #requests}.
 */
final class ScriptedXrootd implements AutoCloseable {
  /** One request as received. */
  record Request(int connection, int id, byte[] params, byte[] data, int streamId) {
    String text() {
      return new String(data, StandardCharsets.UTF_8);
    }

    ByteBuffer params16() {
      return ByteBuffer.wrap(params);
    }
  }

  /** Answers a request with raw response frames, or null for the default answer. */
  interface Script {
    List<byte[]> answer(Request r) throws IOException;
  }

  final byte[] data;
  final List<Request> requests = new CopyOnWriteArrayList<>();
  volatile Script script = r -> null;
  volatile byte[] handshakeAnswer;
  private final ServerSocket server;
  private final Thread acceptor;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private int connections;
  private final AtomicInteger batches = new AtomicInteger();

  ScriptedXrootd(byte[] data) throws IOException {
    this.data = data;
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    this.acceptor = new Thread(this::accept, "scripted-xrootd");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /**
   * The clients' round trips: how many requests were the last the client had sent when the peer
   * read them (nothing more waiting before the answer). A client that waits for each answer makes
   * one per request; requests sent in one write count once.
   */
  int batches() {
    return batches.get();
  }

  int port() {
    return server.getLocalPort();
  }

  URI uri() {
    return URI.create("root://127.0.0.1:" + port() + "//data/f.bin");
  }

  /** A response frame: stream id 1, the status and the body. */
  static byte[] frame(int status, byte[] body) {
    return ByteBuffer.allocate(8 + body.length)
        .putShort((short) 1)
        .putShort((short) status)
        .putInt(body.length)
        .put(body)
        .array();
  }

  /** A response header announcing {@code length} bytes, without them. */
  static byte[] header(int status, int length) {
    return ByteBuffer.allocate(8)
        .putShort((short) 1)
        .putShort((short) status)
        .putInt(length)
        .array();
  }

  /** A body of a 32-bit integer followed by text. */
  static byte[] intText(int n, String text) {
    byte[] t = text.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(4 + t.length).putInt(n).put(t).array();
  }

  static byte[] text(String s) {
    return (s + "\0").getBytes(StandardCharsets.UTF_8);
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket s = server.accept();
        sockets.add(s);
        int n = ++connections;
        Thread t = new Thread(() -> serve(s, n), "scripted-xrootd-" + n);
        t.setDaemon(true);
        t.start();
      } catch (IOException e) {
        return;
      }
    }
  }

  private void serve(Socket s, int connection) {
    try (s) {
      DataInputStream in = new DataInputStream(s.getInputStream());
      OutputStream out = s.getOutputStream();
      in.readFully(new byte[20]);
      byte[] hs = handshakeAnswer;
      out.write(
          hs != null
              ? hs
              : ByteBuffer.allocate(16).putInt(0).putInt(8).putInt(0x520).putInt(1).array());
      while (true) {
        byte[] h = new byte[24];
        in.readFully(h);
        ByteBuffer b = ByteBuffer.wrap(h);
        int streamId = b.getShort() & 0xffff;
        int id = b.getShort() & 0xffff;
        byte[] params = new byte[16];
        b.get(params);
        byte[] body = new byte[b.getInt()];
        in.readFully(body);
        if (in.available() == 0) {
          batches.incrementAndGet();
        }
        Request r = new Request(connection, id, params, body, streamId);
        requests.add(r);
        List<byte[]> answer = script.answer(r);
        for (byte[] f : answer != null ? answer : standard(r)) {
          out.write(streamId == 1 ? f : restamp(f, streamId));
        }
        out.flush();
      }
    } catch (IOException e) {
      // the client hung up
    }
  }

  /** A frame made for stream 1 (a kXR_attn: the frame it carries) answering another stream. */
  private static byte[] restamp(byte[] frame, int streamId) {
    byte[] f = frame.clone();
    ByteBuffer b = ByteBuffer.wrap(f);
    int at = b.getShort(0) == 0 && (b.getShort(2) & 0xffff) == Xrd.ATTN ? 16 : 0;
    b.putShort(at, (short) streamId);
    return f;
  }

  /** The answers of a well-behaved data server. */
  List<byte[]> standard(Request r) {
    List<byte[]> out = new ArrayList<>();
    switch (r.id()) {
      case Xrd.PROTOCOL:
        out.add(frame(0, ByteBuffer.allocate(8).putInt(0x520).putInt(1).array()));
        break;
      case Xrd.LOGIN:
        out.add(frame(0, new byte[16]));
        break;
      case Xrd.OPEN:
        byte[] stat = text("42 " + data.length + " 16 1700000000");
        out.add(
            frame(0, ByteBuffer.allocate(12 + stat.length).putInt(7).putLong(0).put(stat).array()));
        break;
      case Xrd.READ:
        ByteBuffer p = r.params16();
        p.getInt();
        long offset = p.getLong();
        int len = p.getInt();
        int n = (int) Math.max(0, Math.min(len, data.length - offset));
        byte[] chunk = new byte[n];
        System.arraycopy(data, (int) offset, chunk, 0, n);
        out.add(frame(0, chunk));
        break;
      default:
        out.add(frame(0, new byte[0]));
    }
    return out;
  }

  @Override
  public void close() throws IOException {
    server.close();
    for (Socket s : sockets) {
      s.close();
    }
  }
}
