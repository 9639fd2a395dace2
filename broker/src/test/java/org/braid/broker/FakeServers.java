package org.braid.broker;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** Canned HTTP answers and a silent socket on 127.0.0.1 for discovery tests. */
final class FakeServers implements AutoCloseable {

  private final List<HttpServer> servers = new ArrayList<>();
  private final List<ServerSocket> silent = new ArrayList<>();
  private final List<Socket> held = new ArrayList<>();

  /** A server answering every GET with this status and body; hits counts requests. */
  URI answering(int status, byte[] body, AtomicInteger hits) throws IOException {
    HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    s.createContext(
        "/",
        ex -> {
          if (hits != null) {
            hits.incrementAndGet();
          }
          ex.getResponseHeaders().add("Content-Type", "application/json");
          ex.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
          try (OutputStream o = ex.getResponseBody()) {
            o.write(body);
          }
        });
    s.start();
    servers.add(s);
    return URI.create("http://127.0.0.1:" + s.getAddress().getPort() + "/v1/ads");
  }

  /** A server answering by exact path (404 elsewhere); a path mapped to null hangs for 30 s. */
  URI routes(java.util.Map<String, String> bodies) throws IOException {
    HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    s.setExecutor(
        java.util.concurrent.Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "fake-provider");
              t.setDaemon(true);
              return t;
            }));
    s.createContext(
        "/",
        ex -> {
          String path = ex.getRequestURI().getPath();
          if (bodies.containsKey(path) && bodies.get(path) == null) {
            try {
              Thread.sleep(30_000);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
          byte[] body = bodies.getOrDefault(path, "not found").getBytes(StandardCharsets.UTF_8);
          ex.sendResponseHeaders(bodies.containsKey(path) ? 200 : 404, body.length);
          try (OutputStream o = ex.getResponseBody()) {
            o.write(body);
          }
        });
    s.start();
    servers.add(s);
    return URI.create("http://127.0.0.1:" + s.getAddress().getPort() + "/v1/ads");
  }

  /** A server answering every GET with this body, adding each request's Accept-Encoding to seen. */
  URI recordingEncodings(String body, List<String> seen) throws IOException {
    HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    s.createContext(
        "/",
        ex -> {
          String e = ex.getRequestHeaders().getFirst("Accept-Encoding");
          seen.add(e == null ? "(none)" : e);
          ex.sendResponseHeaders(200, bytes.length);
          try (OutputStream o = ex.getResponseBody()) {
            o.write(bytes);
          }
        });
    s.start();
    servers.add(s);
    return URI.create("http://127.0.0.1:" + s.getAddress().getPort() + "/v1/ads");
  }

  URI answering(String body) throws IOException {
    return answering(200, body.getBytes(StandardCharsets.UTF_8), null);
  }

  /** A server that accepts connections and never answers. */
  URI silent() throws IOException {
    ServerSocket ss = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    silent.add(ss);
    Thread t =
        new Thread(
            () -> {
              try {
                while (true) {
                  Socket c = ss.accept();
                  synchronized (held) {
                    held.add(c);
                  }
                }
              } catch (IOException e) {
                // closed
              }
            },
            "silent-provider");
    t.setDaemon(true);
    t.start();
    return URI.create("http://127.0.0.1:" + ss.getLocalPort() + "/v1/ads");
  }

  /** A server that sends headers, then one byte every 50 ms, forever (slowloris in reverse). */
  URI trickling() throws IOException {
    ServerSocket ss = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    silent.add(ss);
    Thread t =
        new Thread(
            () -> {
              try {
                while (true) {
                  Socket c = ss.accept();
                  synchronized (held) {
                    held.add(c);
                  }
                  Thread w =
                      new Thread(
                          () -> {
                            try {
                              OutputStream o = c.getOutputStream();
                              o.write(
                                  "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n["
                                      .getBytes(StandardCharsets.US_ASCII));
                              while (true) {
                                o.write(' ');
                                o.flush();
                                Thread.sleep(50);
                              }
                            } catch (IOException | InterruptedException e) {
                              // closed
                            }
                          },
                          "trickling-writer");
                  w.setDaemon(true);
                  w.start();
                }
              } catch (IOException e) {
                // closed
              }
            },
            "trickling-provider");
    t.setDaemon(true);
    t.start();
    return URI.create("http://127.0.0.1:" + ss.getLocalPort() + "/v1/ads");
  }

  /** A port nothing listens on. */
  static URI refused() throws IOException {
    int port;
    try (ServerSocket ss = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = ss.getLocalPort();
    }
    return URI.create("http://127.0.0.1:" + port + "/v1/ads");
  }

  @Override
  public void close() throws IOException {
    servers.forEach(s -> s.stop(0));
    for (ServerSocket s : silent) {
      s.close();
    }
    synchronized (held) {
      for (Socket s : held) {
        s.close();
      }
    }
  }
}
