package org.braid.provider.publish;

import static org.braid.provider.publish.LdifText.attr;
import static org.braid.provider.publish.LdifText.rdn;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.braid.infoprovider.SizeClass;
import org.braid.infoprovider.TransferRecord.Operation;
import org.braid.infoprovider.VolumeSpace;
import org.braid.infoprovider.stats.TransferStats;
import org.braid.infoprovider.wire.Endpoint;
import org.braid.infoprovider.wire.ScopedStats;
import org.braid.predictors.Forecast;

/**
 * LDIF in the shape of paper 003, Figure 3: one entry per (volume, peer), bandwidths in decimal
 * kilobytes per second with a K suffix, e.g.
 *
 * <pre>
 * dn: cn=140.221.65.69,volume=/data,hostname=dpslx04.lbl.gov,dc=lbl,dc=gov,o=grid
 * objectClass: braidStorageStats
 * cn: 140.221.65.69
 * hostname: dpslx04.lbl.gov
 * gridftpurl: gsiftp://dpslx04.lbl.gov:61000
 * volume: /data
 * minrdbandwidth: 1462K
 * maxrdbandwidth: 12800K
 * avgrdbandwidth: 6000K
 * avgrdbandwidthtenmbrange: 5714K
 * </pre>
 *
 * Attributes: min/max/avg/std/med/lastrdbandwidth, rdtransfers, avgrdbandwidth + size range
 * (tenmbrange, hundredmbrange, fivehundredmbrange, onegbrange), the write side with wr, and when
 * available predrdbandwidth, predrderrorpct, predrdconfidencepct (per range too); for a volume with
 * a configured data directory availablespace and totalspace in bytes.
 *
 * <p>The entries load into an LDAP server that has Braid's schema ({@link Figure3Schema}) and
 * cosine's {@code domain} class: every entry names its object class, and the entries above the
 * statistics ({@code dc=...,o=grid} of the host's domain, {@code hostname=...}, {@code
 * endpoint=...} and {@code volume=...}) come first, parents before children. The suffix {@code
 * o=grid} is the directory's own. Providers of one domain publish the same {@code dc} entries: load
 * with {@code ldapadd -c}, which leaves an existing entry as it is.
 *
 * <p>Entries are per (endpoint, volume, peer). An endpoint's entries carry its URL as {@code
 * gridftpurl} (gsiftp and ftp) or {@code url}, and end with {@code endpointscheme}, {@code
 * endpointhost}, {@code endpointport} and {@code endpointpath}; host-level entries have none of
 * these. When a provider publishes more than one endpoint (host-level counting as one), each
 * endpoint's DN gets {@code endpoint=URL} between the volume and the host, so that DNs stay unique;
 * a provider of one endpoint keeps Figure 3's DN.
 */
public final class Figure3Ldif {

  private Figure3Ldif() {}

  /** Renders a snapshot. */
  public static String render(Snapshot snap) {
    boolean several = snap.scopes().size() > 1;
    Map<EntryKey, StringBuilder> entries = new LinkedHashMap<>();
    for (ScopedStats scoped : snap.stats()) {
      TransferStats s = scoped.stats();
      EntryKey id = new EntryKey(scoped.endpoint(), s.key().volume(), s.key().peer(), several);
      StringBuilder e = entries.computeIfAbsent(id, k -> header(snap, k));
      statistics(e, s);
    }
    StringBuilder out = new StringBuilder();
    Set<String> emitted = new HashSet<>();
    parents(out, emitted, snap);
    Set<String> withEntries = new HashSet<>();
    for (Map.Entry<EntryKey, StringBuilder> e : entries.entrySet()) {
      EntryKey k = e.getKey();
      withEntries.add(k.volume());
      VolumeSpace space = snap.volumes().get(k.volume());
      if (k.endpointInDn()) {
        String dn = endpointDn(snap, k.endpoint());
        if (emitted.add(dn)) {
          StringBuilder ep = new StringBuilder();
          attr(ep, "dn", dn);
          attr(ep, "objectClass", "braidEndpoint");
          attr(ep, "endpoint", k.endpoint().url());
          attr(ep, "hostname", snap.hostname());
          url(ep, k.endpoint());
          endpoint(ep, k.endpoint());
          out.append(ep).append('\n');
        }
      }
      String vdn = volumeDn(snap, k);
      if (emitted.add(vdn)) {
        out.append(volume(vdn, snap, k.volume(), space)).append('\n');
      }
      space(e.getValue(), space);
      endpoint(e.getValue(), k.endpoint());
      out.append(e.getValue()).append('\n');
    }
    for (VolumeSpace v : snap.volumes().values()) {
      if (!withEntries.contains(v.volume())) {
        String dn = "volume=" + rdn(v.volume()) + "," + hostDn(snap);
        out.append(volume(dn, snap, v.volume(), v)).append('\n');
      }
    }
    return out.toString();
  }

  /**
   * What one entry is about; endpoint null for host-level statistics; {@code several} when the
   * provider publishes more than one endpoint.
   */
  private record EntryKey(Endpoint endpoint, String volume, String peer, boolean several) {
    boolean endpointInDn() {
      return several && endpoint != null;
    }
  }

  /** The {@code dc} entries of the host's domain, top down, then the host's entry. */
  private static void parents(StringBuilder out, Set<String> emitted, Snapshot snap) {
    String[] labels = snap.hostname().split("\\.");
    String below = "o=grid";
    for (int i = labels.length - 1; i >= 1; i--) {
      String dn = "dc=" + rdn(labels[i]) + "," + below;
      StringBuilder e = new StringBuilder();
      attr(e, "dn", dn);
      attr(e, "objectClass", "domain");
      attr(e, "dc", labels[i]);
      out.append(e).append('\n');
      emitted.add(dn);
      below = dn;
    }
    StringBuilder h = new StringBuilder();
    attr(h, "dn", hostDn(snap));
    attr(h, "objectClass", "braidHost");
    attr(h, "hostname", snap.hostname());
    out.append(h).append('\n');
    emitted.add(hostDn(snap));
  }

  private static StringBuilder volume(String dn, Snapshot snap, String volume, VolumeSpace v) {
    StringBuilder e = new StringBuilder();
    attr(e, "dn", dn);
    attr(e, "objectClass", "braidVolume");
    attr(e, "volume", volume);
    attr(e, "hostname", snap.hostname());
    space(e, v);
    return e;
  }

  private static void statistics(StringBuilder e, TransferStats s) {
    String op = s.key().operation() == Operation.READ ? "rd" : "wr";
    String range = s.key().sizeClass().ldifSuffix();
    if (s.key().sizeClass() == SizeClass.ALL) {
      attr(e, "min" + op + "bandwidth", k(s.minBandwidth()));
      attr(e, "max" + op + "bandwidth", k(s.maxBandwidth()));
      attr(e, "avg" + op + "bandwidth", k(s.meanBandwidth()));
      attr(e, "std" + op + "bandwidth", k(s.stddevBandwidth()));
      attr(e, "med" + op + "bandwidth", k(s.medianBandwidth()));
      attr(e, "last" + op + "bandwidth", k(s.lastBandwidth()));
      attr(e, op + "transfers", Long.toString(s.count()));
    } else {
      attr(e, "avg" + op + "bandwidth" + range, k(s.meanBandwidth()));
      attr(e, op + "transfers" + range, Long.toString(s.count()));
    }
    Forecast f = s.forecast();
    if (f != null && f.isAvailable()) {
      attr(e, "pred" + op + "bandwidth" + range, k(f.value()));
      attr(e, "pred" + op + "errorpct" + range, String.format(Locale.ROOT, "%.1f", f.errorPct()));
      attr(e, "pred" + op + "confidencepct" + range, String.format(Locale.ROOT, "%.1f", f.ciPct()));
    }
  }

  private static void endpoint(StringBuilder e, Endpoint endpoint) {
    if (endpoint != null) {
      attr(e, "endpointscheme", endpoint.scheme());
      attr(e, "endpointhost", endpoint.host());
      if (endpoint.port() > 0) {
        attr(e, "endpointport", Integer.toString(endpoint.port()));
      }
      attr(e, "endpointpath", endpoint.path());
    }
  }

  private static void url(StringBuilder e, Endpoint endpoint) {
    String scheme = endpoint.scheme();
    attr(e, scheme.equals("gsiftp") || scheme.equals("ftp") ? "gridftpurl" : "url", endpoint.url());
  }

  private static void space(StringBuilder e, VolumeSpace v) {
    if (v != null) {
      attr(e, "availablespace", Long.toString(v.available()));
      attr(e, "totalspace", Long.toString(v.total()));
    }
  }

  /** Bytes per second as decimal kilobytes per second, rounded: "6000K". */
  public static String k(double bytesPerSecond) {
    return Math.round(bytesPerSecond / 1000.0) + "K";
  }

  private static StringBuilder header(Snapshot snap, EntryKey k) {
    StringBuilder e = new StringBuilder();
    attr(e, "dn", "cn=" + rdn(k.peer()) + "," + volumeDn(snap, k));
    attr(e, "objectClass", "braidStorageStats");
    attr(e, "cn", k.peer());
    attr(e, "hostname", snap.hostname());
    if (k.endpoint() != null) {
      url(e, k.endpoint());
    }
    attr(e, "volume", k.volume());
    return e;
  }

  private static String volumeDn(Snapshot snap, EntryKey k) {
    String above = k.endpointInDn() ? endpointDn(snap, k.endpoint()) : hostDn(snap);
    return "volume=" + rdn(k.volume()) + "," + above;
  }

  private static String endpointDn(Snapshot snap, Endpoint e) {
    return "endpoint=" + rdn(e.url()) + "," + hostDn(snap);
  }

  /** {@code hostname=HOST,dc=...,o=grid}: the part of a DN below the volume. */
  private static String hostDn(Snapshot snap) {
    StringBuilder dn = new StringBuilder();
    dn.append("hostname=").append(rdn(snap.hostname()));
    String[] labels = snap.hostname().split("\\.");
    for (int i = 1; i < labels.length; i++) {
      dn.append(",dc=").append(rdn(labels[i]));
    }
    return dn.append(",o=grid").toString();
  }
}
