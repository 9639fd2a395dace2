package org.braid.coalloc;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A GridFTP server on 127.0.0.1 that speaks just enough for partial retrieves in extended block
 * mode, and can be told to misbehave: it sends each range's blocks shuffled over its data
 * connections (out-of-order offsets), as many connections as {@code OPTS RETR Parallelism} asked.
 * One client at a time; the commands it received are kept for assertions.
 */
final class ScriptedModeEServer implements Closeable {
  /** What the server does wrong, if anything. */
  enum Fault {
    NONE,
    BLOCK_OUTSIDE_RANGE,
    WRONG_EOD_COUNT,
    CLOSE_MID_BLOCK,
    REFUSE_MODE_E,
    REFUSE_SBUF,
    OVERLAPPING_BLOCKS
  }

  static final int BLOCK = 1000;

  private final byte[] file;
  private final ServerSocket control;
  private final Thread thread;
  private final List<String> commands = new CopyOnWriteArrayList<>();
  private final List<Integer> connectionsPerTransfer = new CopyOnWriteArrayList<>();
  private volatile Fault fault = Fault.NONE;
  private volatile int batches;

  ScriptedModeEServer(byte[] file) throws IOException {
    this.file = file;
    this.control = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    this.thread = new Thread(this::serve, "scripted-mode-e");
    thread.setDaemon(true);
    thread.start();
  }

  URI uri() {
    return URI.create("gsiftp://127.0.0.1:" + control.getLocalPort() + "/data.bin");
  }

  void fault(Fault f) {
    this.fault = f;
  }

  List<String> commands() {
    return commands;
  }

  /**
   * How many times the server had answered everything and waited for the client's next command: the
   * client's round trips (commands sent together count once).
   */
  int batches() {
    return batches;
  }

  /** How many data connections carried each transfer, in order. */
  List<Integer> connectionsPerTransfer() {
    return connectionsPerTransfer;
  }

  private void serve() {
    while (!control.isClosed()) {
      try (Socket s = control.accept()) {
        session(s);
      } catch (IOException e) {
        // the client went away: wait for the next one
      }
    }
  }

  private void session(Socket s) throws IOException {
    BufferedReader in =
        new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
    OutputStream out = s.getOutputStream();
    reply(out, "220 scripted");
    int parallelism = 1;
    String port = null;
    List<Socket> data = new ArrayList<>();
    try {
      for (String line; (line = in.readLine()) != null; ) {
        if (!in.ready()) {
          batches++;
        }
        commands.add(line);
        String verb = line.split(" ", 2)[0].toUpperCase(java.util.Locale.ROOT);
        switch (verb) {
          case "USER" -> reply(out, "230 welcome");
          case "TYPE", "SITE" -> reply(out, "200 ok");
          case "SBUF" -> reply(out, fault == Fault.REFUSE_SBUF ? "500 unknown SBUF" : "200 ok");
          case "SIZE" -> reply(out, "213 " + file.length);
          case "MDTM" -> reply(out, "213 20261124000000");
          case "MODE" -> reply(out, fault == Fault.REFUSE_MODE_E ? "504 no" : "200 ok");
          case "OPTS" -> {
            parallelism = Integer.parseInt(line.replaceAll(".*Parallelism=(\\d+).*", "$1"));
            reply(out, "200 ok");
          }
          case "PORT" -> {
            port = line.substring(5);
            closeAll(data);
            reply(out, "200 ok");
          }
          case "PASV" -> reply(out, "500 not in this script");
          case "ERET" -> {
            String[] f = line.split(" ");
            long off = Long.parseLong(f[2]);
            long len = Long.parseLong(f[3]);
            reply(out, data.isEmpty() ? "150 opening" : "125 reusing");
            while (data.size() < parallelism) {
              data.add(connect(port));
            }
            send(data, off, len);
            connectionsPerTransfer.add(data.size());
            reply(out, "226 done");
          }
          default -> reply(out, "500 unknown " + verb);
        }
      }
    } finally {
      closeAll(data);
    }
  }

  private static Socket connect(String port) throws IOException {
    String[] p = port.split(",");
    String host = p[0] + "." + p[1] + "." + p[2] + "." + p[3];
    return new Socket(host, Integer.parseInt(p[4]) * 256 + Integer.parseInt(p[5]));
  }

  /** The range's blocks shuffled over the connections, then EOF (with the count) and EODs. */
  private void send(List<Socket> data, long off, long len) throws IOException {
    List<long[]> blocks = new ArrayList<>();
    for (long at = 0; at < len; at += BLOCK) {
      blocks.add(new long[] {at, Math.min(BLOCK, len - at)});
    }
    Collections.shuffle(blocks, new Random(len));
    List<DataOutputStream> outs = new ArrayList<>();
    for (Socket s : data) {
      outs.add(new DataOutputStream(s.getOutputStream()));
    }
    for (int i = 0; i < blocks.size(); i++) {
      long[] b = blocks.get(i);
      DataOutputStream o = outs.get(i % outs.size());
      long at = b[0];
      if (fault == Fault.BLOCK_OUTSIDE_RANGE && i == 1) {
        at = len; // past the end
      }
      if (fault == Fault.OVERLAPPING_BLOCKS && i == 1) {
        at = blocks.get(0)[0];
      }
      header(o, 0, b[1], at);
      if (fault == Fault.CLOSE_MID_BLOCK && i == 1) {
        o.write(file, (int) (off + b[0]), (int) b[1] / 2);
        o.flush();
        closeAll(data);
        return;
      }
      o.write(file, (int) (off + b[0]), (int) b[1]);
    }
    int n = outs.size();
    header(outs.get(0), ModeEBody.EOF, 0, fault == Fault.WRONG_EOD_COUNT ? n + 1 : n);
    for (DataOutputStream o : outs) {
      header(o, ModeEBody.EOD, 0, 0);
      o.flush();
    }
  }

  private static void header(DataOutputStream o, int descriptor, long count, long offset)
      throws IOException {
    o.writeByte(descriptor);
    o.writeLong(count);
    o.writeLong(offset);
  }

  private static void reply(OutputStream out, String r) throws IOException {
    out.write((r + "\r\n").getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }

  private static void closeAll(List<Socket> data) {
    for (Socket s : data) {
      try {
        s.close();
      } catch (IOException e) {
        // closing anyway
      }
    }
    data.clear();
  }

  @Override
  public void close() throws IOException {
    control.close();
  }
}
