/*
 * What one fetching thread's way of reading costs at memory speed (issue 17's unshaped scenario):
 * range requests to local nginx mirrors, each body written into a preallocated file with
 * positional writes, timed and with the fetching threads' CPU seconds. Not a test; run it by hand
 * against the testbed's local mirrors (as root):
 *   src/test/bench/testbed.sh up --www DIR --local 4      # DIR holds the 2,000 MB file f2000
 *   src/test/bench/testbed.sh exec java src/test/bench/FetchPaths.java MODE CONNS BUF \
 *       2000000000 /dev/shm/out 8081 8082 8083 8084
 * MODE: stream (a java.net.Socket's stream into a heap array: the pooled HTTP client's way),
 * heap (a SocketChannel into a heap buffer), direct (a SocketChannel into a direct buffer: braid's
 * near connections), map (a SocketChannel into 16 MiB mappings of the output). CONNS connections
 * split the file evenly, one per thread, over the given ports in turn; BUF bytes per read.
 */
import java.io.EOFException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

public class FetchPaths {
  static String mode;
  static int buf;

  public static void main(String[] a) throws Exception {
    mode = a[0];
    int conns = Integer.parseInt(a[1]);
    buf = Integer.parseInt(a[2]);
    long size = Long.parseLong(a[3]);
    Path out = Path.of(a[4]);
    int[] ports = new int[a.length - 5];
    for (int i = 5; i < a.length; i++) {
      ports[i - 5] = Integer.parseInt(a[i]);
    }
    Files.deleteIfExists(out);
    FileChannel fc =
        FileChannel.open(
            out, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
    fc.write(ByteBuffer.allocate(1), size - 1);
    ThreadMXBean tmx = ManagementFactory.getThreadMXBean();
    long[] cpu = new long[conns];
    Thread[] ts = new Thread[conns];
    long part = size / conns;
    long t0 = System.nanoTime();
    for (int i = 0; i < conns; i++) {
      int k = i;
      long from = i * part;
      long to = i == conns - 1 ? size : from + part;
      ts[i] =
          new Thread(
              () -> {
                try {
                  fetch(ports[k % ports.length], from, to, fc);
                  cpu[k] = tmx.getCurrentThreadCpuTime();
                } catch (Exception e) {
                  e.printStackTrace();
                  System.exit(1);
                }
              });
      ts[i].start();
    }
    for (Thread t : ts) {
      t.join();
    }
    double c = 0;
    for (long x : cpu) {
      c += x / 1e9;
    }
    System.out.printf(
        "%s conns %d buf %d: %.3f s wall, fetch threads %.3f CPU s%n",
        mode, conns, buf, (System.nanoTime() - t0) / 1e9, c);
    fc.close();
  }

  static byte[] request(long from, long to) {
    return ("GET /f2000 HTTP/1.1\r\nHost: x\r\nRange: bytes=" + from + "-" + (to - 1) + "\r\n\r\n")
        .getBytes(StandardCharsets.ISO_8859_1);
  }

  static void fetch(int port, long from, long to, FileChannel fc) throws Exception {
    if (mode.equals("stream")) {
      stream(port, from, to, fc);
      return;
    }
    try (SocketChannel sc = SocketChannel.open(new InetSocketAddress("127.0.0.1", port))) {
      sc.write(ByteBuffer.wrap(request(from, to)));
      ByteBuffer h = ByteBuffer.allocate(4096);
      int end = -1;
      while (end < 0) {
        if (sc.read(h) < 0) {
          throw new EOFException();
        }
        byte[] b = h.array();
        for (int i = 3; i < h.position() && end < 0; i++) {
          if (b[i - 3] == '\r' && b[i - 2] == '\n' && b[i - 1] == '\r' && b[i] == '\n') {
            end = i + 1;
          }
        }
      }
      int extra = h.position() - end;
      fc.write(ByteBuffer.wrap(h.array(), end, extra), from);
      long at = from + extra;
      if (mode.equals("map")) {
        while (at < to) {
          long len = Math.min(16L << 20, to - at);
          MappedByteBuffer m = fc.map(FileChannel.MapMode.READ_WRITE, at, len);
          while (m.position() < m.capacity()) {
            m.limit(Math.min(m.capacity(), m.position() + buf));
            if (sc.read(m) < 0) {
              throw new EOFException();
            }
          }
          at += len;
        }
        return;
      }
      ByteBuffer b = mode.equals("direct") ? ByteBuffer.allocateDirect(buf) : ByteBuffer.allocate(buf);
      while (at < to) {
        b.clear().limit((int) Math.min(buf, to - at));
        if (sc.read(b) < 0) {
          throw new EOFException();
        }
        b.flip();
        while (b.hasRemaining()) {
          at += fc.write(b, at);
        }
      }
    }
  }

  static void stream(int port, long from, long to, FileChannel fc) throws Exception {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.getOutputStream().write(request(from, to));
      InputStream in = s.getInputStream();
      for (int st = 0; st < 4; ) {
        int c = in.read();
        if (c < 0) {
          throw new EOFException();
        }
        st = c == (st % 2 == 0 ? '\r' : '\n') ? st + 1 : c == '\r' ? 1 : 0;
      }
      byte[] b = new byte[buf];
      ByteBuffer w = ByteBuffer.wrap(b);
      long at = from;
      while (at < to) {
        int n = in.read(b, 0, (int) Math.min(buf, to - at));
        if (n < 0) {
          throw new EOFException();
        }
        w.clear().limit(n);
        while (w.hasRemaining()) {
          at += fc.write(w, at);
        }
      }
    }
  }
}
