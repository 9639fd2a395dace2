package org.braid.broker.catalog;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import javax.xml.stream.Location;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Reads Metalink 4 (RFC 5854) with StAX. DTDs are refused outright (so no entity can be declared or
 * expanded, internal or external); external entities and XInclude are off as well. Only the
 * elements a broker needs are read: file name, size, hash, pieces, url; others are skipped.
 */
final class MetalinkParser {
  private static final Pattern CONTROL = Pattern.compile("\\p{Cntrl}");

  static final String NS = "urn:ietf:params:xml:ns:metalink";
  private static final int MAX_TEXT = 8192;

  private final String source;
  private final CatalogLimits limits;
  private XMLStreamReader r;

  MetalinkParser(String source, CatalogLimits limits) {
    this.source = source;
    this.limits = limits;
  }

  static XMLInputFactory factory() {
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

  ReplicaCatalog parse(byte[] bytes) throws CatalogException {
    Map<String, CatalogFile> files = new LinkedHashMap<>();
    try {
      r = factory().createXMLStreamReader(new ByteArrayInputStream(bytes));
      try {
        int root = next();
        while (root != XMLStreamConstants.START_ELEMENT) {
          root = next();
        }
        if (!"metalink".equals(r.getLocalName())) {
          throw error("root element is <" + r.getLocalName() + ">, not <metalink>");
        }
        if (!NS.equals(r.getNamespaceURI())) {
          throw error(
              "not Metalink 4: namespace "
                  + r.getNamespaceURI()
                  + " (expected "
                  + NS
                  + "; Metalink 3 is not supported)");
        }
        while (true) {
          int e = next();
          if (e == XMLStreamConstants.END_ELEMENT) {
            break;
          }
          if (e == XMLStreamConstants.START_ELEMENT) {
            if (isMl("file")) {
              CatalogFile f = file();
              if (files.size() >= limits.maxFiles()) {
                throw error("more than " + limits.maxFiles() + " files");
              }
              if (files.putIfAbsent(f.name(), f) != null) {
                throw error("file " + f.name() + " is listed twice");
              }
            } else {
              skip();
            }
          }
        }
      } finally {
        r.close();
      }
    } catch (RuntimeException e) {
      throw new CatalogException(source + ": malformed Metalink: " + e, e);
    } catch (XMLStreamException e) {
      String msg = e.getMessage() == null ? e.toString() : e.getMessage();
      // StAX messages start with "ParseError at [row,col]:..." and span lines.
      msg =
          msg.replace('\n', ' ')
              .replaceFirst("^ParseError at \\[row,col\\]:\\[\\d+,\\d+\\]\\s*Message:\\s*", "");
      throw new CatalogException(
          source + where(e.getLocation()) + ": malformed Metalink: " + msg, e);
    }
    if (files.isEmpty()) {
      throw new CatalogException(source + ": Metalink lists no file");
    }
    return new ReplicaCatalog(files, Map.of());
  }

  private CatalogFile file() throws XMLStreamException, CatalogException {
    String rawName = r.getAttributeValue(null, "name");
    if (rawName == null) {
      throw error("<file> without a name attribute");
    }
    String name = Catalogs.checkName(rawName, source + where(r.getLocation()));
    long size = -1;
    Map<String, String> hashes = new LinkedHashMap<>();
    CatalogFile.Pieces pieces = null;
    List<Replica> replicas = new ArrayList<>();
    while (true) {
      int e = next();
      if (e == XMLStreamConstants.END_ELEMENT) {
        break;
      }
      if (e != XMLStreamConstants.START_ELEMENT) {
        continue;
      }
      if (isMl("size")) {
        String t = text();
        try {
          size = Long.parseLong(t);
        } catch (NumberFormatException ex) {
          size = -2;
        }
        if (size < 0) {
          throw error("file " + name + ": size is not a non-negative integer: " + t);
        }
      } else if (isMl("hash")) {
        String type = attr("type", "hash").toLowerCase(Locale.ROOT);
        if (hashes.put(type, hex(text(), "hash")) != null) {
          throw error("file " + name + ": hash " + abbreviate(type) + " listed twice");
        }
      } else if (isMl("pieces")) {
        pieces = pieces(name);
      } else if (isMl("url")) {
        replicas.add(url(name, replicas.size()));
      } else {
        skip();
      }
    }
    replicas.sort(Comparator.comparingInt(Replica::priority));
    return new CatalogFile(name, size, hashes, pieces, replicas);
  }

  private CatalogFile.Pieces pieces(String name) throws XMLStreamException, CatalogException {
    String type = attr("type", "pieces").toLowerCase(Locale.ROOT);
    String len = attr("length", "pieces");
    long length;
    try {
      length = Long.parseLong(len);
    } catch (NumberFormatException ex) {
      length = 0;
    }
    if (length <= 0) {
      throw error("file " + name + ": pieces length is not a positive integer: " + len);
    }
    List<String> list = new ArrayList<>();
    while (true) {
      int e = next();
      if (e == XMLStreamConstants.END_ELEMENT) {
        break;
      }
      if (e == XMLStreamConstants.START_ELEMENT) {
        if (!isMl("hash")) {
          skip();
          continue;
        }
        if (list.size() >= limits.maxPieces()) {
          throw error("file " + name + ": more than " + limits.maxPieces() + " piece hashes");
        }
        list.add(hex(text(), "piece hash"));
      }
    }
    return new CatalogFile.Pieces(type, length, list);
  }

  private Replica url(String name, int count) throws XMLStreamException, CatalogException {
    if (count >= limits.maxUrlsPerFile()) {
      throw error("file " + name + ": more than " + limits.maxUrlsPerFile() + " URLs");
    }
    String at = source + where(r.getLocation());
    String p = r.getAttributeValue(null, "priority");
    String loc = r.getAttributeValue(null, "location");
    int priority = Replica.NO_PRIORITY;
    if (p != null) {
      try {
        priority = Integer.parseInt(p.trim());
      } catch (NumberFormatException ex) {
        priority = 0;
      }
      if (priority < 1 || priority > Replica.NO_PRIORITY) {
        throw new CatalogException(at + ": url priority must be 1..999999: " + p);
      }
    }
    String location = "";
    if (loc != null) {
      location = loc.trim().toLowerCase(Locale.ROOT);
      if (!location.matches("[a-z]{2}")) {
        throw new CatalogException(at + ": url location must be a two-letter country code: " + loc);
      }
    }
    URI uri = Catalogs.parseUrl(text(), at);
    return new Replica(uri, priority, location, null);
  }

  private boolean isMl(String local) {
    return local.equals(r.getLocalName()) && NS.equals(r.getNamespaceURI());
  }

  private String attr(String name, String element) throws CatalogException {
    String v = r.getAttributeValue(null, name);
    if (v == null || v.isBlank()) {
      throw error("<" + element + "> without a " + name + " attribute");
    }
    return v.trim();
  }

  private static String hex(String t, String what) throws CatalogException {
    String h = t.trim().toLowerCase(Locale.ROOT);
    if (h.isEmpty() || h.length() > 256 || !h.matches("[0-9a-f]+")) {
      throw new CatalogException(what + " is not hexadecimal: " + abbreviate(t));
    }
    return h;
  }

  /** Reads the text of a simple element, with a length limit, and consumes its end tag. */
  private String text() throws XMLStreamException, CatalogException {
    StringBuilder sb = new StringBuilder();
    while (true) {
      int e = next();
      if (e == XMLStreamConstants.END_ELEMENT) {
        return sb.toString().trim();
      }
      if (e == XMLStreamConstants.START_ELEMENT) {
        throw error("unexpected <" + r.getLocalName() + "> inside a text element");
      }
      if (e == XMLStreamConstants.ENTITY_REFERENCE) {
        throw error("entity reference &" + r.getLocalName() + "; refused");
      }
      if (r.hasText()) {
        sb.append(r.getText());
        if (sb.length() > MAX_TEXT) {
          throw error("text longer than " + MAX_TEXT + " characters");
        }
      }
    }
  }

  private void skip() throws XMLStreamException, CatalogException {
    int depth = 1;
    while (depth > 0) {
      int e = next();
      if (e == XMLStreamConstants.START_ELEMENT) {
        depth++;
      } else if (e == XMLStreamConstants.END_ELEMENT) {
        depth--;
      }
    }
  }

  private int next() throws XMLStreamException, CatalogException {
    int e = r.next();
    if (e == XMLStreamConstants.DTD) {
      throw error("DOCTYPE declarations are refused (entities, external DTDs)");
    }
    if (e == XMLStreamConstants.ENTITY_REFERENCE) {
      throw error("entity reference &" + r.getLocalName() + "; refused");
    }
    if (e == XMLStreamConstants.END_DOCUMENT) {
      throw error("unexpected end of document");
    }
    return e;
  }

  private CatalogException error(String msg) {
    return new CatalogException(source + where(r.getLocation()) + ": " + msg);
  }

  private static String where(Location l) {
    return l == null || l.getLineNumber() < 0 ? "" : ":" + l.getLineNumber();
  }

  static String abbreviate(String s) {
    String t = CONTROL.matcher(s).replaceAll("?");
    return t.length() > 60 ? t.substring(0, 60) + "..." : t;
  }
}
