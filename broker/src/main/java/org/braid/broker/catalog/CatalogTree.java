package org.braid.broker.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Reads the JSON/YAML catalog tree described in {@link Catalogs}. */
final class CatalogTree {

  private CatalogTree() {}

  static ReplicaCatalog read(JsonNode root, String source, CatalogLimits limits)
      throws CatalogException {
    if (root == null || !root.isObject()) {
      throw new CatalogException(source + ": catalog must be an object with 'files'");
    }
    for (String k : Catalogs.it(root.fieldNames())) {
      if (!List.of("files", "providers", "datasets").contains(k)) {
        throw new CatalogException(
            source
                + ": unknown key '"
                + MetalinkParser.abbreviate(k)
                + "' (expected files, providers, datasets)");
      }
    }
    JsonNode filesNode = root.get("files");
    if (filesNode == null || !filesNode.isObject() || filesNode.isEmpty()) {
      throw new CatalogException(source + ": 'files' must be a non-empty map of name to replicas");
    }
    if (filesNode.size() > limits.maxFiles()) {
      throw new CatalogException(source + ": more than " + limits.maxFiles() + " files");
    }
    Map<String, CatalogFile> files = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : filesNode.properties()) {
      String where = source + ": file " + MetalinkParser.abbreviate(e.getKey());
      String name = Catalogs.checkName(e.getKey(), source);
      if (files.put(name, file(name, e.getValue(), where, limits)) != null) {
        throw new CatalogException(where + ": listed twice");
      }
    }
    Map<String, URI> providers = new LinkedHashMap<>();
    JsonNode p = root.get("providers");
    if (p != null && !p.isNull()) {
      if (!p.isObject()) {
        throw new CatalogException(source + ": 'providers' must be a map of host to URL");
      }
      for (Map.Entry<String, JsonNode> e : p.properties()) {
        String at = source + ": provider " + MetalinkParser.abbreviate(e.getKey());
        if (providers.put(e.getKey().toLowerCase(Locale.ROOT), providerUrl(e.getValue(), at))
            != null) {
          throw new CatalogException(at + ": listed twice");
        }
      }
    }
    return new ReplicaCatalog(files, providers, datasets(root.get("datasets"), source, limits));
  }

  /** The {@code datasets} map: name to a list of file names or glob patterns. */
  private static Map<String, List<String>> datasets(JsonNode d, String source, CatalogLimits limits)
      throws CatalogException {
    Map<String, List<String>> out = new LinkedHashMap<>();
    if (d == null || d.isNull()) {
      return out;
    }
    if (!d.isObject()) {
      throw new CatalogException(
          source + ": 'datasets' must be a map of dataset name to file names or patterns");
    }
    for (Map.Entry<String, JsonNode> e : d.properties()) {
      String where = source + ": dataset " + MetalinkParser.abbreviate(e.getKey());
      if (!e.getValue().isArray() || e.getValue().isEmpty()) {
        throw new CatalogException(where + ": must be a non-empty list of file names or patterns");
      }
      if (e.getValue().size() > limits.maxFiles()) {
        throw new CatalogException(where + ": more than " + limits.maxFiles() + " entries");
      }
      List<String> members = new ArrayList<>();
      for (JsonNode m : e.getValue()) {
        if (!m.isTextual() || m.asText().isEmpty() || m.asText().length() > 1024) {
          throw new CatalogException(where + ": entries must be file names or patterns");
        }
        members.add(m.asText());
      }
      out.put(e.getKey(), members);
    }
    return out;
  }

  private static CatalogFile file(String name, JsonNode n, String where, CatalogLimits limits)
      throws CatalogException {
    if (n.isArray()) {
      return new CatalogFile(name, -1, Map.of(), null, replicas(n, where, limits));
    }
    if (!n.isObject()) {
      throw new CatalogException(where + ": must be a list of URLs or a map with 'replicas'");
    }
    for (String k : Catalogs.it(n.fieldNames())) {
      if (!List.of("size", "hashes", "replicas").contains(k)) {
        throw new CatalogException(
            where
                + ": unknown key '"
                + MetalinkParser.abbreviate(k)
                + "' (expected size, hashes, replicas)");
      }
    }
    long size = -1;
    JsonNode s = n.get("size");
    if (s != null && !s.isNull()) {
      if (!s.canConvertToExactIntegral() || !s.canConvertToLong() || s.asLong() < 0) {
        throw new CatalogException(
            where
                + ": size must be a non-negative integer: "
                + MetalinkParser.abbreviate(s.toString()));
      }
      size = s.asLong();
    }
    Map<String, String> hashes = new LinkedHashMap<>();
    JsonNode h = n.get("hashes");
    if (h != null && !h.isNull()) {
      if (!h.isObject()) {
        throw new CatalogException(where + ": hashes must be a map of algorithm to hex digest");
      }
      for (Map.Entry<String, JsonNode> e : h.properties()) {
        String v = e.getValue().asText("").trim().toLowerCase(Locale.ROOT);
        if (!e.getValue().isTextual() || !v.matches("[0-9a-f]{1,256}")) {
          throw new CatalogException(
              where + ": hash " + MetalinkParser.abbreviate(e.getKey()) + " is not hexadecimal");
        }
        if (hashes.put(e.getKey().toLowerCase(Locale.ROOT), v) != null) {
          throw new CatalogException(
              where + ": hash " + MetalinkParser.abbreviate(e.getKey()) + " listed twice");
        }
      }
    }
    JsonNode r = n.get("replicas");
    if (r == null || !r.isArray()) {
      throw new CatalogException(where + ": 'replicas' must be a list");
    }
    return new CatalogFile(name, size, hashes, null, replicas(r, where, limits));
  }

  private static List<Replica> replicas(JsonNode list, String where, CatalogLimits limits)
      throws CatalogException {
    if (list.isEmpty()) {
      throw new CatalogException(where + ": no replica");
    }
    if (list.size() > limits.maxUrlsPerFile()) {
      throw new CatalogException(where + ": more than " + limits.maxUrlsPerFile() + " URLs");
    }
    List<Replica> out = new ArrayList<>();
    int i = 0;
    for (JsonNode r : list) {
      String at = where + ": replica " + (++i);
      if (r.isTextual()) {
        out.add(Replica.of(Catalogs.parseUrl(r.asText(), at)));
        continue;
      }
      if (!r.isObject() || !r.hasNonNull("url")) {
        throw new CatalogException(at + ": must be a URL or a map with 'url'");
      }
      for (String k : Catalogs.it(r.fieldNames())) {
        if (!List.of("url", "priority", "location", "provider").contains(k)) {
          throw new CatalogException(
              at
                  + ": unknown key '"
                  + MetalinkParser.abbreviate(k)
                  + "' (expected url, priority, location, provider)");
        }
      }
      URI uri = Catalogs.parseUrl(r.get("url").asText(), at);
      int priority = Replica.NO_PRIORITY;
      JsonNode p = r.get("priority");
      if (p != null && !p.isNull()) {
        if (!p.canConvertToExactIntegral() || p.asLong() < 1 || p.asLong() > Replica.NO_PRIORITY) {
          throw new CatalogException(
              at + ": priority must be 1..999999: " + MetalinkParser.abbreviate(p.toString()));
        }
        priority = p.asInt();
      }
      String location = r.path("location").asText("").trim().toLowerCase(Locale.ROOT);
      if (!location.isEmpty() && !location.matches("[a-z]{2}")) {
        throw new CatalogException(at + ": location must be a two-letter country code");
      }
      URI provider =
          r.hasNonNull("provider") ? providerUrl(r.get("provider"), at + ": provider") : null;
      out.add(new Replica(uri, priority, location, provider));
    }
    return Catalogs.sorted(out);
  }

  private static URI providerUrl(JsonNode n, String where) throws CatalogException {
    if (!n.isTextual()) {
      throw new CatalogException(where + ": must be a URL");
    }
    URI u;
    try {
      u = new URI(n.asText().strip());
    } catch (java.net.URISyntaxException e) {
      throw new CatalogException(where + ": invalid URL: " + e.getReason());
    }
    if (!("http".equalsIgnoreCase(u.getScheme()) || "https".equalsIgnoreCase(u.getScheme()))
        || u.getHost() == null) {
      throw new CatalogException(where + ": provider URL must be http(s)://HOST[:PORT][/v1/ads]");
    }
    return u;
  }
}
