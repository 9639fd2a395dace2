package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The three listing formats: WebDAV multistatus, nginx's JSON index, MLSD. */
class ListingParsersTest {

  private static InputStream in(String s) {
    return new ByteArrayInputStream(s.getBytes(StandardCharsets.UTF_8));
  }

  private static String names(List<TreeLister.Entry> es) {
    StringBuilder sb = new StringBuilder();
    for (TreeLister.Entry e : es) {
      sb.append(e.name()).append(':').append(e.kind()).append(':').append(e.size()).append(';');
    }
    return sb.toString();
  }

  /** As XRootD's HTTP plug-in 5.5 answers (raw spaces and UTF-8 in hrefs, lp1 prefixes). */
  static final String XROOTD =
      "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
          + "<D:multistatus xmlns:D=\"DAV:\" xmlns:ns0=\"DAV:\">\n"
          + "<D:response xmlns:lp1=\"DAV:\"><D:href>/data/run 1/</D:href><D:propstat><D:prop>"
          + "<lp1:getcontentlength>4096</lp1:getcontentlength>"
          + "<lp1:resourcetype><D:collection/></lp1:resourcetype></D:prop>"
          + "<D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>\n"
          + "<D:response xmlns:lp1=\"DAV:\"><D:href>/data/run 1/sub dir</D:href><D:propstat><D:prop>"
          + "<lp1:getcontentlength>4096</lp1:getcontentlength>"
          + "<lp1:resourcetype><D:collection/></lp1:resourcetype></D:prop>"
          + "<D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>\n"
          + "<D:response xmlns:lp1=\"DAV:\"><D:href>/data/run 1/ü.bin</D:href><D:propstat><D:prop>"
          + "<lp1:getcontentlength>6</lp1:getcontentlength><lp1:iscollection>0</lp1:iscollection>"
          + "</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>\n"
          + "</D:multistatus>";

  /** As dCache and Apache mod_dav answer: absolute URLs or encoded paths, 404 propstats. */
  static final String DCACHE =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
          + "<d:multistatus xmlns:d=\"DAV:\">"
          + "<d:response><d:href>http://door:2880/pnfs/x/run%201/</d:href>"
          + "<d:propstat><d:prop><d:resourcetype><d:collection/></d:resourcetype></d:prop>"
          + "<d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
          + "<d:response><d:href>/pnfs/x/run%201/a%20b%23c.h5</d:href>"
          + "<d:propstat><d:prop><d:resourcetype/><d:getcontentlength>123456789012</d:getcontentlength>"
          + "</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>"
          + "<d:propstat><d:prop><d:getcontentlength/></d:prop>"
          + "<d:status>HTTP/1.1 404 Not Found</d:status></d:propstat></d:response>"
          + "<d:response><d:href>/pnfs/x/run%201/nested/</d:href>"
          + "<d:propstat><d:prop><d:resourcetype><d:collection/></d:resourcetype>"
          + "<d:getcontentlength>0</d:getcontentlength></d:prop>"
          + "<d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
          + "</d:multistatus>";

  @Test
  void webdav_xrootdStyle_rawHrefsAreDecodedRelativeToTheDirectory() throws Exception {
    List<String> refused = new ArrayList<>();
    List<TreeLister.Entry> es =
        WebDavListing.parse(
            in(XROOTD),
            URI.create("http://h:1094/data/run%201/"),
            List.of("data", "run 1"),
            refused);
    assertEquals("sub dir:DIRECTORY:-1;ü.bin:FILE:6;", names(es));
    assertEquals(List.of(), refused);
  }

  @Test
  void webdav_dcacheStyle_absoluteUrlsEncodedNamesAndIgnoredFailedPropstats() throws Exception {
    List<String> refused = new ArrayList<>();
    List<TreeLister.Entry> es =
        WebDavListing.parse(
            in(DCACHE),
            URI.create("http://door:2880/pnfs/x/run%201/"),
            List.of("pnfs", "x", "run 1"),
            refused);
    assertEquals("a b#c.h5:FILE:123456789012;nested:DIRECTORY:-1;", names(es));
  }

  @Test
  void webdav_hrefsOutsideTheDirectoryOrWithEncodedSlashes_areRefused() throws Exception {
    String doc =
        "<D:multistatus xmlns:D=\"DAV:\">"
            + "<D:response><D:href>/d/../../etc/passwd</D:href><D:propstat><D:prop>"
            + "<D:getcontentlength>1</D:getcontentlength></D:prop>"
            + "<D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>"
            + "<D:response><D:href>/other/x</D:href><D:propstat><D:prop/>"
            + "<D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>"
            + "<D:response><D:href>/d/a/b/c</D:href><D:propstat><D:prop/>"
            + "<D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>"
            + "<D:response><D:href>/d/ok</D:href><D:propstat><D:prop>"
            + "<D:getcontentlength>-5</D:getcontentlength></D:prop>"
            + "<D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>"
            + "<D:response><D:href>/d/a%2Fb</D:href><D:propstat><D:prop/>"
            + "<D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>"
            + "</D:multistatus>";
    List<String> refused = new ArrayList<>();
    List<TreeLister.Entry> es =
        WebDavListing.parse(in(doc), URI.create("http://h/d/"), List.of("d"), refused);
    // the encoded slash survives as a name with '/', which the walk refuses
    assertEquals("a/b:FILE:-1;", names(es));
    assertEquals(4, refused.size(), refused.toString());
  }

  @Test
  void webdav_dtdsAndOtherDocuments_areRefused() {
    String xxe =
        "<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>"
            + "<D:multistatus xmlns:D=\"DAV:\"><D:response><D:href>&e;</D:href></D:response>"
            + "</D:multistatus>";
    URI u = URI.create("http://h/d/");
    assertThrows(
        SourceException.class,
        () -> WebDavListing.parse(in(xxe), u, List.of("d"), new ArrayList<>()));
    SourceException e =
        assertThrows(
            SourceException.class,
            () -> WebDavListing.parse(in("<html/>"), u, List.of("d"), new ArrayList<>()));
    assertTrue(e.getMessage().contains("not a DAV:multistatus"), e.getMessage());
  }

  @Test
  void autoindex_readsNginxJson() throws Exception {
    String json =
        "[\n{ \"name\":\"d1\", \"type\":\"directory\", \"mtime\":\"Tue, 24 Nov 2026 01:53:47 GMT\" },\n"
            + "{ \"name\":\"a \\\"q\\\" b.txt\", \"type\":\"file\", \"mtime\":\"x\", \"size\":3 },\n"
            + "{ \"name\":\"fifo\", \"type\":\"other\", \"mtime\":\"x\" }\n]";
    List<TreeLister.Entry> es = AutoindexListing.parse(in(json), URI.create("http://h/"));
    assertEquals("d1:DIRECTORY:-1;a \"q\" b.txt:FILE:3;fifo:OTHER:-1;", names(es));
    assertThrows(
        SourceException.class, () -> AutoindexListing.parse(in("{}"), URI.create("http://h/")));
    assertThrows(
        SourceException.class,
        () -> AutoindexListing.parse(in("[{\"type\":\"file\"}]"), URI.create("http://h/")));
    assertThrows(
        SourceException.class,
        () -> AutoindexListing.parse(in("[" + "[".repeat(100)), URI.create("http://h/")));
  }

  @Test
  void mlsd_readsGlobusFactsAndSkipsCurrentAndParent() {
    String mlsd =
        "Type=cdir;Modify=20261124015347;Size=4096;Perm=cfmpel;UNIX.mode=0755; .\r\n"
            + "Type=pdir;Modify=20261124015347;Size=4096; ..\r\n"
            + "Type=file;Modify=20261124015347;Size=5000000;Perm=adfrw;UNIX.mode=0644; data 1.bin\r\n"
            + "Type=dir;Modify=20261124015347;Size=4096; sub\r\n"
            + "Type=OS.unix=slink:/etc/passwd;Modify=20261124015347; link\r\n"
            + "garbage-without-space\r\n";
    assertEquals(
        "data 1.bin:FILE:5000000;sub:DIRECTORY:-1;link:OTHER:-1;",
        names(GridFtpLister.parse(mlsd)));
  }
}
