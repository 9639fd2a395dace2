package org.braid.provider.publish;

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
 * LDIF in the shape of paper 003, Figure 3, for a BDII or GRIS provider script: one entry per
 * (volume, peer), bandwidths in decimal kilobytes per second with a K suffix, e.g.
 *
 * <pre>
 * dn: cn=140.221.65.69,volume=/data,hostname=dpslx04.lbl.gov,dc=lbl,dc=gov,o=grid
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
 * a configured data directory availablespace and totalspace in bytes (a volume without transfers
 * gets an entry of its own, {@code dn: volume=...,hostname=...}).
 *
 * <p>Entries are per (endpoint, volume, peer). An endpoint's entries carry its URL as {@code
 * gridftpurl} (gsiftp and ftp) or {@code url}, and end with {@code endpointscheme}, {@code
 * endpointhost}, {@code endpointport} and {@code endpointpath}; host-level entries have none of
 * these. When a provider publishes more than one endpoint (host-level counting as one), each
 * endpoint's DN gets {@code endpoint=URL} between the volume and the host, so that DNs stay unique;
 * a provider of one endpoint keeps Figure 3's DN.
 */
public final class Ldif {

  private Ldif() {}

  /** Renders a snapshot. */
  public static String render(Snapshot snap) {
    boolean several = snap.scopes().size() > 1;
    Map<EntryKey, StringBuilder> entries = new LinkedHashMap<>();
    for (ScopedStats scoped : snap.stats()) {
      TransferStats s = scoped.stats();
      EntryKey id = new EntryKey(scoped.endpoint(), s.key().volume(), s.key().peer());
      StringBuilder e = entries.computeIfAbsent(id, k -> header(snap, k, several));
      statistics(e, s);
    }
    Set<String> withEntries = new HashSet<>();
    for (Map.Entry<EntryKey, StringBuilder> e : entries.entrySet()) {
      withEntries.add(e.getKey().volume());
      space(e.getValue(), snap.volumes().get(e.getKey().volume()));
      endpoint(e.getValue(), e.getKey().endpoint());
    }
    StringBuilder out = new StringBuilder();
    for (StringBuilder e : entries.values()) {
      out.append(e).append('\n');
    }
    for (VolumeSpace v : snap.volumes().values()) {
      if (!withEntries.contains(v.volume())) {
        StringBuilder e = new StringBuilder();
        attr(e, "dn", "volume=" + rdn(v.volume()) + "," + hostDn(snap));
        attr(e, "hostname", snap.hostname());
        attr(e, "volume", v.volume());
        space(e, v);
        out.append(e).append('\n');
      }
    }
    return out.toString();
  }

  /** What one entry is about; endpoint null for host-level statistics. */
  private record EntryKey(Endpoint endpoint, String volume, String peer) {}

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

  private static StringBuilder header(Snapshot snap, EntryKey k, boolean several) {
    StringBuilder e = new StringBuilder();
    StringBuilder dn = new StringBuilder();
    dn.append("cn=").append(rdn(k.peer()));
    dn.append(",volume=").append(rdn(k.volume()));
    if (several && k.endpoint() != null) {
      dn.append(",endpoint=").append(rdn(k.endpoint().url()));
    }
    dn.append(',').append(hostDn(snap));
    attr(e, "dn", dn.toString());
    attr(e, "cn", k.peer());
    attr(e, "hostname", snap.hostname());
    if (k.endpoint() != null) {
      String url = k.endpoint().url();
      String scheme = k.endpoint().scheme();
      attr(e, scheme.equals("gsiftp") || scheme.equals("ftp") ? "gridftpurl" : "url", url);
    }
    attr(e, "volume", k.volume());
    return e;
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

  private static void attr(StringBuilder e, String name, String value) {
    e.append(name);
    if (needsBase64(value)) {
      e.append(":: ")
          .append(
              java.util.Base64.getEncoder()
                  .encodeToString(value.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    } else {
      e.append(": ").append(value);
    }
    e.append('\n');
  }

  /** RFC 2849: values starting with space, colon or '<', or with non-ASCII or CR/LF, are base64. */
  private static boolean needsBase64(String v) {
    if (v.isEmpty()) {
      return false;
    }
    char c0 = v.charAt(0);
    if (c0 == ' ' || c0 == ':' || c0 == '<' || v.endsWith(" ")) {
      return true;
    }
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      if (c > 126 || c == '\n' || c == '\r' || c == 0) {
        return true;
      }
    }
    return false;
  }

  /** Escapes an RDN value (RFC 4514). */
  static String rdn(String v) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      if (",+\"\\<>;=".indexOf(c) >= 0
          || (i == 0 && (c == '#' || c == ' '))
          || (i == v.length() - 1 && c == ' ')) {
        sb.append('\\');
      }
      sb.append(c);
    }
    return sb.toString();
  }
}
