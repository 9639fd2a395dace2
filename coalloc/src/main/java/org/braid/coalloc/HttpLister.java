package org.braid.coalloc;

import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.io.entity.StringEntity;
import org.apache.hc.core5.http.message.BasicClassicHttpRequest;
import org.braid.coalloc.credentials.GridEnvironment;

/**
 * Lists a directory tree over HTTP(S): WebDAV {@code PROPFIND} with {@code Depth: 1} per directory
 * (dCache, XRootD's HTTP plug-in, StoRM, Apache {@code mod_dav}; see {@link WebDavListing}); when
 * the server does not speak WebDAV ({@code 405} or {@code 501}, as nginx answers), a {@code GET} of
 * each directory for nginx's JSON index ({@code autoindex_format json}; see {@link
 * AutoindexListing}). An HTML index page is refused with a message saying what the server needs.
 * {@code dav://} and {@code davs://} URLs are read as http and https. One keep-alive connection,
 * the same timeouts, credentials and trust as {@link HttpRangeSource}. Not thread-safe.
 */
final class HttpLister extends TreeLister {
  private final URI base;
  private final SourceOptions options;
  private final CloseableHttpClient client;
  private final List<String> rootSegments;
  private final List<String> refusedHrefs = new ArrayList<>();
  private boolean json;

  /**
   * A lister for an http(s) or dav(s) directory URL. Touches nothing on the network.
   *
   * @throws IllegalArgumentException if the URL is not http(s) or dav(s), or the TLS material is
   *     unusable
   */
  HttpLister(URI root, SourceOptions options, ListLimits limits) {
    super(root, limits, Ticker.system());
    String scheme = root.getScheme() == null ? "" : root.getScheme().toLowerCase(Locale.ROOT);
    String http =
        switch (scheme) {
          case "http", "dav" -> "http";
          case "https", "davs" -> "https";
          default -> throw new IllegalArgumentException("not an http(s) or dav(s) URL: " + root);
        };
    String s = root.toString();
    this.base = URI.create(http + s.substring(scheme.length()) + (s.endsWith("/") ? "" : "/"));
    this.options = options;
    this.rootSegments = WebDavListing.segments(base, base.getRawPath());
    // the same timeouts, credentials, trust and forward proxy as the range sources; no redirects
    String token = GridAccess.token(base, options, GridEnvironment.of(options.environment()));
    this.client =
        HttpReplicaClient.builder(base, options, 2, /* redirects= */ false)
            .addRequestInterceptorLast(
                (request, entity, context) -> {
                  if (token != null) { // redirects are not followed: always the same host
                    request.setHeader("Authorization", "Bearer " + token);
                  }
                  // the user's headers too, except where the listing sets its own (Accept, Depth)
                  options
                      .headers()
                      .forEach(
                          (k, v) -> {
                            if (!request.containsHeader(k)) {
                              request.setHeader(k, v);
                            }
                          });
                })
            .build();
  }

  @Override
  public Listing list() throws IOException {
    refusedHrefs.clear();
    Listing l = super.list();
    if (refusedHrefs.isEmpty()) {
      return l;
    }
    List<String> refused = new ArrayList<>(l.refused());
    refused.addAll(refusedHrefs);
    return new Listing(l.root(), l.files(), refused);
  }

  @Override
  List<Entry> children(String dir, int room) throws IOException {
    URI u = URI.create(base + DatasetNames.encode(dir));
    if (!json) {
      List<Entry> dav = propfind(u, dir);
      if (dav != null) {
        return dav;
      }
      json = true;
    }
    return autoindex(u);
  }

  /** The entries by PROPFIND, or null when the server does not speak WebDAV. */
  private List<Entry> propfind(URI u, String dir) throws IOException {
    BasicClassicHttpRequest req = new BasicClassicHttpRequest("PROPFIND", u);
    req.setHeader("Depth", "1");
    req.setEntity(
        new StringEntity(
            WebDavListing.PROPFIND_BODY, ContentType.create("application/xml", "utf-8")));
    try (ClassicHttpResponse r = execute(req, u)) {
      int status = r.getCode();
      if (status == 405 || status == 501 || (status == 400 && dir.isEmpty())) {
        discard(r);
        return null;
      }
      if (status != 207) {
        throw failure(u, r, "PROPFIND");
      }
      List<String> segs = new ArrayList<>(rootSegments);
      for (String s : dir.split("/")) {
        if (!s.isEmpty()) {
          segs.add(s);
        }
      }
      try (InputStream in = body(r, u)) {
        return WebDavListing.parse(in, u, segs, refusedHrefs);
      }
    }
  }

  /** The entries from nginx's JSON index. */
  private List<Entry> autoindex(URI u) throws IOException {
    BasicClassicHttpRequest req = new BasicClassicHttpRequest("GET", u);
    req.setHeader("Accept", "application/json");
    try (ClassicHttpResponse r = execute(req, u)) {
      if (r.getCode() != 200) {
        throw failure(u, r, "GET");
      }
      Header ct = r.getFirstHeader("Content-Type");
      String type = ct == null ? "" : ct.getValue().toLowerCase(Locale.ROOT);
      if (!type.contains("json")) {
        discard(r);
        throw new SourceException(
            u,
            "the server sends a directory index of type '"
                + (type.isEmpty() ? "none" : type)
                + "' that braid cannot read; listing needs WebDAV (PROPFIND) or nginx's"
                + " 'autoindex on; autoindex_format json;'",
            false,
            null);
      }
      try (InputStream in = body(r, u)) {
        return AutoindexListing.parse(in, u);
      }
    }
  }

  private ClassicHttpResponse execute(BasicClassicHttpRequest req, URI u) throws IOException {
    try {
      return client.executeOpen(null, req, HttpClientContext.create());
    } catch (SocketTimeoutException e) {
      throw new SourceException.StalledException(
          u, "no answer within " + options.stallTimeout().toSeconds() + " s", e);
    } catch (IOException e) {
      throw new SourceException.ConnectionException(
          u, "listing request failed: " + HttpRangeSource.describe(e), e);
    }
  }

  private InputStream body(ClassicHttpResponse r, URI u) throws IOException {
    HttpEntity e = r.getEntity();
    if (e == null) {
      throw new SourceException(u, "listing answer has no body", false, null);
    }
    return bounded(e.getContent(), u, "listing answer");
  }

  private SourceException failure(URI u, ClassicHttpResponse r, String method) throws IOException {
    discard(r);
    int status = r.getCode();
    String where = "";
    Header loc = r.getFirstHeader("Location");
    if (status >= 300 && status < 400 && loc != null) {
      where = " to " + DatasetNames.shown(loc.getValue()) + " (give that URL instead)";
    }
    String hint =
        status == 403 && method.equals("GET")
            ? " (a directory index needs 'autoindex on; autoindex_format json;' on nginx)"
            : status == 404 ? " (no such directory)" : "";
    return new SourceException.HttpStatusException(
        u, status, r.getReasonPhrase() + " to " + method + where + hint);
  }

  private void discard(ClassicHttpResponse r) throws IOException {
    HttpEntity e = r.getEntity();
    if (e != null) {
      e.getContent().close();
    }
  }

  @Override
  public void close() throws IOException {
    client.close();
  }
}
