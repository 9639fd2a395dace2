package org.braid.provider.publish;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpStatus;
import org.apache.hc.core5.http.NameValuePair;
import org.apache.hc.core5.http.io.HttpRequestHandler;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.io.entity.StringEntity;
import org.apache.hc.core5.http.message.BasicClassicHttpResponse;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.net.URIBuilder;
import org.braid.infoprovider.SizeClass;
import org.braid.infoprovider.TransferRecord.Operation;
import org.braid.infoprovider.VolumeSpace;
import org.braid.infoprovider.stats.TransferStats;
import org.braid.infoprovider.store.Point;
import org.braid.infoprovider.wire.Endpoint;
import org.braid.infoprovider.wire.ScopedStats;
import org.braid.infoprovider.wire.SeriesJson;
import org.braid.infoprovider.wire.StatsJson;

/** Routes the provider's read-only endpoints. Thread-safe (stateless besides its suppliers). */
final class RequestRouter implements HttpRequestHandler {

  private static final ContentType JSON = ContentType.APPLICATION_JSON;
  private static final ContentType TEXT = ContentType.create("text/plain", StandardCharsets.UTF_8);
  private static final ContentType CLASSAD =
      ContentType.create("application/x-classad", StandardCharsets.UTF_8);

  private final Supplier<Snapshot> snapshot;
  private final SeriesSource series;
  private final HttpLimits limits;
  private final ProviderMetrics metrics;

  /** Rendered bodies of one snapshot, by request; replaced when the snapshot changes. */
  private record Rendered(Snapshot snapshot, Map<String, Body> bodies) {}

  /** A rendered answer. */
  private record Body(byte[] bytes, ContentType type) {}

  private static final int MAX_CACHED_BODIES = 256;
  private volatile Rendered rendered = new Rendered(null, Map.of());

  RequestRouter(
      Supplier<Snapshot> snapshot,
      SeriesSource series,
      HttpLimits limits,
      ProviderMetrics metrics) {
    this.snapshot = snapshot;
    this.series = series;
    this.limits = limits;
    this.metrics = metrics;
  }

  /** The path label of a request in {@code braid_provider_http_requests_total}: bounded. */
  static String routeLabel(String requestUri) {
    String p = requestUri == null ? "" : requestUri;
    int q = p.indexOf('?');
    p = q >= 0 ? p.substring(0, q) : p;
    switch (p) {
      case "/metrics":
      case "/healthz":
      case "/v1/ads":
      case "/v1/stats":
      case "/v1/series":
        return p;
      default:
        return p.startsWith("/v1/series/") ? "/v1/series/{name}" : "other";
    }
  }

  /** An answer with a status other than 200. */
  private static final class Reject extends Exception {
    final int status;

    Reject(int status, String message) {
      super(message, null, false, false);
      this.status = status;
    }
  }

  @Override
  public void handle(ClassicHttpRequest request, ClassicHttpResponse response, HttpContext context)
      throws IOException {
    try {
      route(request, response);
    } catch (Reject r) {
      reject(r, response);
    }
    if (request.getFirstHeader(ProviderHttpServer.OVERLOAD) != null) {
      metrics.closed("overload");
    }
    metrics.request(routeLabel(request.getRequestUri()), response.getCode());
  }

  private static void reject(Reject r, ClassicHttpResponse response) {
    response.setCode(r.status);
    if (r.status == HttpStatus.SC_METHOD_NOT_ALLOWED) {
      response.setHeader("Allow", "GET, HEAD");
    }
    if (r.status >= 400 && r.status != HttpStatus.SC_NOT_FOUND) {
      response.setHeader("Connection", "close");
    }
    if (r.status == HttpStatus.SC_SERVICE_UNAVAILABLE) {
      response.setHeader("Retry-After", "1");
    }
    response.setEntity(new StringEntity(r.getMessage() + "\n", TEXT));
  }

  private void route(ClassicHttpRequest request, ClassicHttpResponse response)
      throws Reject, IOException {
    if (request.getFirstHeader(ProviderHttpServer.OVERLOAD) != null) {
      throw new Reject(
          HttpStatus.SC_SERVICE_UNAVAILABLE,
          "too many connections (limit " + limits.maxConnections() + "); try again");
    }
    Header oversize = request.getFirstHeader(ProviderHttpServer.OVERSIZE);
    if (oversize != null) {
      throw new Reject(431, "request head too large: " + oversize.getValue());
    }
    checkHead(request);
    String method = request.getMethod();
    if (!method.equals("GET") && !method.equals("HEAD")) {
      throw new Reject(HttpStatus.SC_METHOD_NOT_ALLOWED, "method not allowed: " + method);
    }
    URIBuilder uri;
    try {
      uri = new URIBuilder(request.getRequestUri());
    } catch (URISyntaxException e) {
      throw new Reject(HttpStatus.SC_BAD_REQUEST, "bad request target: " + e.getMessage());
    }
    String path = uri.getPath() == null ? "" : uri.getPath();
    List<NameValuePair> query = uri.getQueryParams();
    if (request.getEntity() != null && request.getEntity().getContentLength() != 0) {
      throw new Reject(HttpStatus.SC_BAD_REQUEST, "a " + method + " request has no body");
    }
    if (path.equals("/metrics")) {
      allow(query, Set.of());
      Header accept = request.getFirstHeader("Accept");
      ProviderMetrics.Exposition e = metrics.scrape(accept == null ? null : accept.getValue());
      response.setCode(HttpStatus.SC_OK);
      response.setEntity(new ByteArrayEntity(e.body(), ContentType.parse(e.contentType())));
      return;
    }
    Snapshot snap = snapshot.get();
    if (path.equals("/v1/stats") || path.equals("/v1/ads")) {
      Header accept = request.getFirstHeader("Accept");
      boolean json = accept != null && accept.getValue().contains("application/json");
      String key = path + "?" + uri.getQueryParams() + (json ? " json" : "");
      Rendered r = rendered;
      if (r.snapshot() != snap) {
        r = new Rendered(snap, new ConcurrentHashMap<>());
        rendered = r;
      }
      Body body = r.bodies().get(key);
      if (body == null) {
        ClassicHttpResponse scratch = new BasicClassicHttpResponse(HttpStatus.SC_OK);
        render(path, snap, request, query, scratch);
        try {
          body =
              new Body(
                  EntityUtils.toByteArray(scratch.getEntity()),
                  ContentType.parse(scratch.getEntity().getContentType()));
        } catch (IOException e) {
          throw new IllegalStateException("rendering in memory cannot fail", e);
        }
        if (r.bodies().size() < MAX_CACHED_BODIES) {
          r.bodies().put(key, body);
        }
      }
      response.setCode(HttpStatus.SC_OK);
      response.setEntity(new ByteArrayEntity(body.bytes(), body.type()));
      return;
    }
    switch (path) {
      case "/healthz":
        allow(query, Set.of());
        ok(response, "ok\n", TEXT);
        return;
      case "/v1/series":
        allow(query, Set.of());
        ok(response, SeriesJson.writeNames(series.names()) + "\n", JSON);
        return;
      default:
        if (path.startsWith("/v1/series/")) {
          allow(query, Set.of());
          // The path is already percent-decoded: /v1/series/disk%2Fsda%2Futil and
          // /v1/series/disk/sda/util name the same series.
          String name = path.substring("/v1/series/".length());
          List<Point> points = series.points(name);
          if (points.isEmpty()) {
            throw new Reject(HttpStatus.SC_NOT_FOUND, "no such series: " + name);
          }
          ok(response, SeriesJson.write(new SeriesJson.Answer(name, points)) + "\n", JSON);
          return;
        }
        throw new Reject(HttpStatus.SC_NOT_FOUND, "not found: " + path);
    }
  }

  /** Renders the snapshot endpoints (cached per snapshot by the caller). */
  private static void render(
      String path,
      Snapshot snap,
      ClassicHttpRequest request,
      List<NameValuePair> query,
      ClassicHttpResponse response)
      throws Reject {
    switch (path) {
      case "/v1/stats":
        stats(snap, query, response);
        return;
      default:
        ads(snap, request, query, response);
        return;
    }
  }

  private void checkHead(ClassicHttpRequest request) throws Reject {
    if (request.getRequestUri().length() > limits.maxUriLength()) {
      throw new Reject(
          HttpStatus.SC_REQUEST_URI_TOO_LONG,
          "request target longer than " + limits.maxUriLength() + " characters");
    }
    Header[] headers = request.getHeaders();
    if (headers.length > limits.maxHeaderCount()) {
      throw new Reject(431, "more than " + limits.maxHeaderCount() + " header fields");
    }
    long bytes = 0;
    for (Header h : headers) {
      bytes += h.getName().length() + 2 + (h.getValue() == null ? 0 : h.getValue().length());
    }
    if (bytes > limits.maxHeaderBytes()) {
      throw new Reject(431, "header fields longer than " + limits.maxHeaderBytes() + " bytes");
    }
  }

  private static void allow(List<NameValuePair> query, Set<String> names) throws Reject {
    for (NameValuePair p : query) {
      if (!names.contains(p.getName())) {
        throw new Reject(HttpStatus.SC_BAD_REQUEST, "unknown query parameter: " + p.getName());
      }
    }
  }

  private static String param(List<NameValuePair> query, String name) {
    for (NameValuePair p : query) {
      if (p.getName().equals(name)) {
        return p.getValue() == null ? "" : p.getValue();
      }
    }
    return null;
  }

  private static void stats(Snapshot snap, List<NameValuePair> query, ClassicHttpResponse response)
      throws Reject {
    allow(query, Set.of("peer", "operation", "sizeClass", "volume", "endpoint"));
    String peer = param(query, "peer");
    String volume = param(query, "volume");
    String endpoint = param(query, "endpoint");
    Operation op = null;
    SizeClass sc = null;
    Endpoint door = null;
    try {
      String o = param(query, "operation");
      op = o == null ? null : Operation.parse(o);
      String s = param(query, "sizeClass");
      sc = s == null ? null : SizeClass.parse(s);
      door = endpoint == null || endpoint.isEmpty() ? null : Endpoint.parse(endpoint);
    } catch (IllegalArgumentException e) {
      throw new Reject(HttpStatus.SC_BAD_REQUEST, e.getMessage());
    }
    List<ScopedStats> out = new ArrayList<>();
    for (ScopedStats scoped : snap.stats()) {
      TransferStats s = scoped.stats();
      if ((peer == null || peer.equals(s.key().peer()))
          && (volume == null || volume.equals(s.key().volume()))
          && (op == null || op == s.key().operation())
          && (sc == null || sc == s.key().sizeClass())
          && (endpoint == null || Objects.equals(door, scoped.endpoint()))) {
        out.add(scoped);
      }
    }
    List<VolumeSpace> volumes =
        snap.volumes().values().stream()
            .filter(v -> volume == null || volume.equals(v.volume()))
            .toList();
    StatsJson.Answer a =
        new StatsJson.Answer(
            snap.computedAt(), snap.hostname(), snap.rejectedLines(), out, volumes);
    ok(response, StatsJson.write(a) + "\n", JSON);
  }

  private static void ads(
      Snapshot snap,
      ClassicHttpRequest request,
      List<NameValuePair> query,
      ClassicHttpResponse response)
      throws Reject {
    allow(query, Set.of("peer"));
    String peer = param(query, "peer");
    Header accept = request.getFirstHeader("Accept");
    if (accept != null && accept.getValue().contains("application/json")) {
      ok(response, StorageAds.json(snap, peer) + "\n", JSON);
    } else {
      ok(response, StorageAds.classAds(snap, peer), CLASSAD);
    }
  }

  private static void ok(ClassicHttpResponse response, String body, ContentType type) {
    response.setCode(HttpStatus.SC_OK);
    response.setEntity(new StringEntity(body, type));
  }
}
