package org.braid.coalloc;

import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Reads a WebDAV {@code 207 Multi-Status} answer to {@code PROPFIND} with {@code Depth: 1} (RFC
 * 4918) as dCache, XRootD's HTTP plug-in, StoRM WebDAV and Apache {@code mod_dav} send it: one
 * {@code <response>} per entry with its {@code <href>} and, in the {@code <propstat>} whose status
 * is 200, {@code <resourcetype>} ({@code <collection/>} for a directory) and {@code
 * <getcontentlength>}. DTDs and external entities are refused. Stateless.
 */
final class WebDavListing {
  static final String DAV = "DAV:";

  /** The request body: only the two properties the listing needs. */
  static final String PROPFIND_BODY =
      "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
          + "<D:propfind xmlns:D=\"DAV:\"><D:prop><D:resourcetype/><D:getcontentlength/>"
          + "</D:prop></D:propfind>\n";

  private WebDavListing() {}

  private static XMLInputFactory factory() {
    XMLInputFactory f = XMLInputFactory.newFactory();
    f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    f.setProperty(XMLInputFactory.IS_REPLACING_ENTITY_REFERENCES, false);
    f.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, true);
    f.setXMLResolver(
        (publicId, systemId, base, ns) -> {
          throw new XMLStreamException("external resource refused: " + systemId);
        });
    return f;
  }

  /**
   * The entries of the directory {@code dir} (its decoded path segments below the server root) from
   * the answer; the directory's own entry is left out, and an href that is not a direct child of it
   * is refused with a reason in {@code refused}.
   *
   * @throws SourceException if the answer is not a multistatus document
   */
  static List<TreeLister.Entry> parse(
      InputStream in, URI requested, List<String> dir, List<String> refused)
      throws SourceException {
    List<TreeLister.Entry> out = new ArrayList<>();
    try {
      XMLStreamReader r = factory().createXMLStreamReader(in);
      try {
        while (r.hasNext() && r.next() != XMLStreamConstants.START_ELEMENT) {
          if (r.getEventType() == XMLStreamConstants.DTD) {
            throw new SourceException(
                requested, "PROPFIND answer declares a DTD (refused)", false, null);
          }
        }
        if (!r.isStartElement()
            || !DAV.equals(r.getNamespaceURI())
            || !"multistatus".equals(r.getLocalName())) {
          throw new SourceException(
              requested, "PROPFIND answer is not a DAV:multistatus document", false, null);
        }
        while (r.hasNext()) {
          int e = r.next();
          if (e == XMLStreamConstants.ENTITY_REFERENCE) {
            throw new SourceException(
                requested, "PROPFIND answer uses an entity reference (refused)", false, null);
          }
          if (e == XMLStreamConstants.START_ELEMENT && isDav(r, "response")) {
            Response resp = response(r);
            TreeLister.Entry entry = entryOf(resp, requested, dir, refused);
            if (entry != null) {
              out.add(entry);
            }
          }
        }
      } finally {
        r.close();
      }
    } catch (XMLStreamException e) {
      String m = String.valueOf(e.getMessage()).replace('\n', ' ');
      throw new SourceException(requested, "malformed PROPFIND answer: " + m, false, e);
    }
    return out;
  }

  private static boolean isDav(XMLStreamReader r, String name) {
    return DAV.equals(r.getNamespaceURI()) && name.equals(r.getLocalName());
  }

  /** One {@code <response>}: its href and the properties of its 200 propstat. */
  private static final class Response {
    String href;
    boolean collection;
    String length;
  }

  private static Response response(XMLStreamReader r) throws XMLStreamException {
    Response out = new Response();
    int depth = 1;
    while (depth > 0) {
      int e = r.next();
      if (e == XMLStreamConstants.END_ELEMENT) {
        depth--;
      } else if (e == XMLStreamConstants.START_ELEMENT) {
        if (depth == 1 && isDav(r, "href")) {
          out.href = text(r);
        } else if (depth == 1 && isDav(r, "propstat")) {
          propstat(r, out);
        } else {
          depth++;
        }
      }
    }
    return out;
  }

  /** Reads a propstat; takes its properties only if its status is 200. */
  private static void propstat(XMLStreamReader r, Response out) throws XMLStreamException {
    boolean collection = false;
    String length = null;
    String status = null;
    int depth = 1;
    while (depth > 0) {
      int e = r.next();
      if (e == XMLStreamConstants.END_ELEMENT) {
        depth--;
      } else if (e == XMLStreamConstants.START_ELEMENT) {
        if (isDav(r, "collection")) {
          collection = true;
          depth++;
        } else if (isDav(r, "getcontentlength")) {
          length = text(r);
        } else if (isDav(r, "status")) {
          status = text(r);
        } else {
          depth++;
        }
      }
    }
    if (status == null || status.matches("\\S+\\s+200(\\s.*)?")) {
      out.collection |= collection;
      out.length = length != null ? length : out.length;
    }
  }

  /** The element's text (bounded), positioned after its end tag. */
  private static String text(XMLStreamReader r) throws XMLStreamException {
    StringBuilder sb = new StringBuilder();
    int depth = 1;
    while (depth > 0) {
      int e = r.next();
      if (e == XMLStreamConstants.CHARACTERS || e == XMLStreamConstants.CDATA) {
        if (sb.length() < 16384) {
          sb.append(r.getText());
        }
      } else if (e == XMLStreamConstants.START_ELEMENT) {
        depth++;
      } else if (e == XMLStreamConstants.END_ELEMENT) {
        depth--;
      }
    }
    return sb.toString().strip();
  }

  /** The decoded path segments of an href, or null when it is not a usable URL. */
  static List<String> segments(URI requested, String href) {
    URI u;
    try {
      u = requested.resolve(new URI(tolerant(href)));
    } catch (URISyntaxException | IllegalArgumentException e) {
      return null;
    }
    if (u.getRawPath() == null) {
      return null;
    }
    List<String> segs = new ArrayList<>();
    for (String s : u.getRawPath().split("/")) {
      if (!s.isEmpty()) {
        try {
          segs.add(URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
          return null;
        }
      }
    }
    return segs;
  }

  /** Percent-encodes characters that may not appear raw in a URL, leaving escapes as they are. */
  static String tolerant(String href) {
    StringBuilder sb = new StringBuilder(href.length());
    for (byte b : href.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if (c <= 0x20 || c >= 0x7f || "\"<>\\^`{|}#?".indexOf(c) >= 0) {
        sb.append('%').append(String.format("%02X", c));
      } else {
        sb.append((char) c);
      }
    }
    return sb.toString();
  }

  /** Resolves a response into an entry of {@code dir}. */
  private static TreeLister.Entry entryOf(
      Response resp, URI requested, List<String> dir, List<String> refused) {
    if (resp.href == null) {
      refused.add("a PROPFIND response without href");
      return null;
    }
    List<String> segs = segments(requested, resp.href);
    if (segs == null) {
      refused.add(DatasetNames.shown(resp.href) + ": unusable href");
      return null;
    }
    if (segs.equals(dir)) {
      return null; // the directory itself
    }
    if (segs.size() != dir.size() + 1 || !segs.subList(0, dir.size()).equals(dir)) {
      refused.add(DatasetNames.shown(resp.href) + ": not an entry of the listed directory");
      return null;
    }
    String name = segs.get(segs.size() - 1);
    if (resp.collection) {
      return new TreeLister.Entry(name, TreeLister.Kind.DIRECTORY, -1, null);
    }
    long size = -1;
    if (resp.length != null) {
      try {
        size = Long.parseLong(resp.length);
      } catch (NumberFormatException e) {
        size = -2;
      }
      if (size < 0) {
        refused.add(DatasetNames.shown(name) + ": bad getcontentlength " + resp.length);
        return null;
      }
    }
    return new TreeLister.Entry(name, TreeLister.Kind.FILE, size, null);
  }
}
