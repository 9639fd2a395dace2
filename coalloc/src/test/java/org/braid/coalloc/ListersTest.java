package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** FileLister on a real tree; HttpLister against a JDK HTTP server speaking WebDAV or JSON. */
class ListersTest {
  @TempDir Path dir;
  HttpServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop(0);
    }
  }

  private static Map<String, Long> files(Listing l) {
    Map<String, Long> m = new TreeMap<>();
    for (ListedFile f : l.files()) {
      m.put(f.path(), f.size());
    }
    return m;
  }

  @Test
  void fileLister_listsNestedRegularFilesAndRefusesLinks() throws Exception {
    Files.createDirectories(dir.resolve("a/b c/d"));
    Files.write(dir.resolve("top.bin"), new byte[3]);
    Files.write(dir.resolve("a/b c/ü $x.dat"), new byte[5]);
    Files.write(dir.resolve("a/b c/d/e"), new byte[0]);
    Files.createSymbolicLink(dir.resolve("a/link"), Path.of("/etc/passwd"));
    Files.createSymbolicLink(dir.resolve("a/dirlink"), Path.of("/"));
    try (Lister l = Lister.of(dir.toUri(), SourceOptions.DEFAULT, ListLimits.DEFAULT)) {
      Listing listing = l.list();
      assertEquals(Map.of("top.bin", 3L, "a/b c/ü $x.dat", 5L, "a/b c/d/e", 0L), files(listing));
      assertEquals(2, listing.refused().size(), listing.refused().toString());
      assertTrue(listing.refused().get(0).contains("symbolic link"), listing.refused().toString());
    }
  }

  @Test
  void fileLister_limitsOnEntriesAndDepth_failWithTheLimit() throws Exception {
    Path deep = dir;
    for (int i = 0; i < 5; i++) {
      deep = Files.createDirectories(deep.resolve("d" + i));
    }
    Files.write(deep.resolve("f"), new byte[1]);
    ListLimits shallow = new ListLimits(1 << 20, 1000, 3, Duration.ofMinutes(1));
    SourceException e =
        assertThrows(SourceException.class, () -> new FileLister(dir.toUri(), shallow).list());
    assertTrue(e.getMessage().contains("deeper than 3 levels"), e.getMessage());
    SourceException many =
        assertThrows(
            SourceException.class,
            () -> new FileLister(dir.toUri(), ListLimits.DEFAULT.withMaxEntries(4)).list());
    assertTrue(many.getMessage().contains("more than 4 entries"), many.getMessage());
    assertEquals(1, new FileLister(dir.toUri(), ListLimits.DEFAULT).list().files().size());
  }

  @Test
  void fileLister_missingDirectory_saysSo() {
    SourceException e =
        assertThrows(
            SourceException.class,
            () -> new FileLister(dir.resolve("nope").toUri(), ListLimits.DEFAULT).list());
    assertTrue(e.getMessage().contains("no such directory"), e.getMessage());
  }

  private URI serve(Function<HttpExchange, String[]> answer) throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        x -> {
          String[] a = answer.apply(x); // status, content type, body
          byte[] body = a[2].getBytes(StandardCharsets.UTF_8);
          if (a[1] != null) {
            x.getResponseHeaders().set("Content-Type", a[1]);
          }
          x.sendResponseHeaders(Integer.parseInt(a[0]), body.length == 0 ? -1 : body.length);
          try (OutputStream o = x.getResponseBody()) {
            o.write(body);
          }
        });
    server.start();
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/data/run%201");
  }

  private static String multistatus(String... responses) {
    StringBuilder sb = new StringBuilder("<D:multistatus xmlns:D=\"DAV:\">");
    for (String r : responses) {
      sb.append("<D:response>").append(r).append("</D:response>");
    }
    return sb.append("</D:multistatus>").toString();
  }

  private static String dav(String href, boolean dir, long size) {
    return "<D:href>"
        + href
        + "</D:href><D:propstat><D:prop>"
        + (dir ? "<D:resourcetype><D:collection/></D:resourcetype>" : "<D:resourcetype/>")
        + (dir ? "" : "<D:getcontentlength>" + size + "</D:getcontentlength>")
        + "</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat>";
  }

  @Test
  void httpLister_webdav_walksTheTreeWithDepthOne() throws Exception {
    URI root =
        serve(
            x -> {
              assertEquals("PROPFIND", x.getRequestMethod());
              assertEquals("1", x.getRequestHeaders().getFirst("Depth"));
              String p = x.getRequestURI().getRawPath();
              if (p.equals("/data/run%201/")) {
                return new String[] {
                  "207",
                  "application/xml",
                  multistatus(
                      dav("/data/run 1/", true, 0),
                      dav("/data/run%201/sub%20dir/", true, 0),
                      dav("/data/run%201/a.bin", false, 10))
                };
              }
              if (p.equals("/data/run%201/sub%20dir/")) {
                return new String[] {
                  "207",
                  "application/xml",
                  multistatus(
                      dav("/data/run%201/sub%20dir/", true, 0),
                      dav("/data/run%201/sub%20dir/%C3%BC.bin", false, 7),
                      dav("/data/run%201/sub%20dir/..%2F..%2Fx", false, 7))
                };
              }
              return new String[] {"404", null, ""};
            });
    try (Lister l = Lister.of(root, SourceOptions.DEFAULT, ListLimits.DEFAULT)) {
      Listing listing = l.list();
      assertEquals(Map.of("a.bin", 10L, "sub dir/ü.bin", 7L), files(listing));
      assertEquals(1, listing.refused().size(), listing.refused().toString());
    }
  }

  @Test
  void httpLister_nginxWithoutWebdav_fallsBackToTheJsonIndex() throws Exception {
    URI root =
        serve(
            x -> {
              if (x.getRequestMethod().equals("PROPFIND")) {
                return new String[] {"405", "text/html", "<html>405 Not Allowed</html>"};
              }
              String p = x.getRequestURI().getRawPath();
              if (p.equals("/data/run%201/")) {
                return new String[] {
                  "200",
                  "application/json",
                  "[{\"name\":\"d\",\"type\":\"directory\"},{\"name\":\"x y\",\"type\":\"file\",\"size\":4}]"
                };
              }
              if (p.equals("/data/run%201/d/")) {
                return new String[] {
                  "200", "application/json", "[{\"name\":\"z\",\"type\":\"file\",\"size\":1}]"
                };
              }
              return new String[] {"404", null, ""};
            });
    try (Lister l = Lister.of(root, SourceOptions.DEFAULT, ListLimits.DEFAULT)) {
      assertEquals(Map.of("x y", 4L, "d/z", 1L), files(l.list()));
    }
  }

  @Test
  void httpLister_userHeaders_sentWithEveryListingRequest_butNotOverItsOwn() throws Exception {
    List<String> seen = new CopyOnWriteArrayList<>();
    URI root =
        serve(
            x -> {
              seen.add(
                  x.getRequestMethod()
                      + " "
                      + x.getRequestHeaders().getFirst("X-Experiment")
                      + " "
                      + x.getRequestHeaders().getFirst("Accept"));
              if (x.getRequestMethod().equals("PROPFIND")) {
                return new String[] {"405", "text/html", ""};
              }
              return new String[] {
                "200", "application/json", "[{\"name\":\"z\",\"type\":\"file\",\"size\":1}]"
              };
            });
    SourceOptions o =
        SourceOptions.builder().header("X-Experiment", "atlas").header("Accept", "*/*").build();
    try (Lister l = Lister.of(root, o, ListLimits.DEFAULT)) {
      assertEquals(Map.of("z", 1L), files(l.list()));
    }
    assertEquals(2, seen.size(), seen.toString());
    assertEquals("PROPFIND atlas */*", seen.get(0));
    assertEquals("GET atlas application/json", seen.get(1)); // the JSON index keeps its Accept
  }

  @Test
  void httpLister_htmlIndex_isRefusedWithWhatTheServerNeeds() throws Exception {
    URI root =
        serve(
            x ->
                x.getRequestMethod().equals("PROPFIND")
                    ? new String[] {"405", "text/html", "no"}
                    : new String[] {"200", "text/html", "<html><a href=x>x</a></html>"});
    try (Lister l = Lister.of(root, SourceOptions.DEFAULT, ListLimits.DEFAULT)) {
      SourceException e = assertThrows(SourceException.class, l::list);
      assertTrue(e.getMessage().contains("autoindex_format json"), e.getMessage());
    }
  }

  @Test
  void httpLister_hugeAnswerOrMissingDirectory_failsWithTheLimit() throws Exception {
    URI root =
        serve(
            x ->
                x.getRequestURI().getRawPath().contains("missing")
                    ? new String[] {"404", null, ""}
                    : new String[] {"207", "application/xml", " ".repeat(200_000)});
    ListLimits small = new ListLimits(100_000, 1000, 8, Duration.ofMinutes(1));
    try (Lister l = Lister.of(root, SourceOptions.DEFAULT, small)) {
      SourceException e = assertThrows(SourceException.class, l::list);
      assertTrue(e.getMessage().contains("larger than 100000 bytes"), e.getMessage());
    }
    URI missing = root.resolve("missing/");
    try (Lister l = Lister.of(missing, SourceOptions.DEFAULT, small)) {
      SourceException e = assertThrows(SourceException.class, l::list);
      assertTrue(e.getMessage().contains("HTTP 404"), e.getMessage());
    }
  }

  @Test
  void merge_matchesFilesByPathAndLeavesOutDisagreeingSizes() {
    URI a = URI.create("http://a/d/");
    URI b = URI.create("gsiftp://b/x/");
    URI c = URI.create("file:/c/");
    Listing la =
        new Listing(a, List.of(new ListedFile("f1", 10), new ListedFile("s/f2", 5)), List.of());
    Listing lb =
        new Listing(
            b,
            List.of(new ListedFile("s/f2", 5), new ListedFile("f1", 11), new ListedFile("f3", 1)),
            List.of("'bad': no"));
    Listing lc = new Listing(c, List.of(new ListedFile("f1", 10)), List.of());
    DatasetListing.Merged m = DatasetListing.merge(List.of(la, lb, lc));
    assertEquals(3, m.files().size());
    DatasetFile f1 = m.files().get(0);
    assertEquals("f1", f1.path());
    assertEquals(10, f1.size());
    assertEquals(List.of(URI.create("http://a/d/f1"), URI.create("file:/c/f1")), f1.sources());
    assertEquals(
        List.of(URI.create("http://a/d/s/f2"), URI.create("gsiftp://b/x/s/f2")),
        m.files().get(1).sources());
    assertEquals(List.of(URI.create("gsiftp://b/x/f3")), m.files().get(2).sources());
    assertEquals(2, m.notes().size(), m.notes().toString());
    assertTrue(
        m.notes().get(1).contains("has 11 bytes, the other replicas 10"), m.notes().toString());
  }
}
