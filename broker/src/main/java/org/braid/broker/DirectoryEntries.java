package org.braid.broker;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchResultListener;
import com.unboundid.ldap.sdk.SearchResultReference;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.braid.infoprovider.wire.AdAttributes;
import org.braid.infoprovider.wire.Endpoint;
import org.braid.infoprovider.wire.Glue2Extensions;

/**
 * The Braid extension entries of one directory search, parsed as they arrive ({@link
 * LdapDiscovery}): storage ads by the lower-case host of their endpoint (else of their site), the
 * latest probe values by site host name, and a count of unreadable entries with the first one's DN
 * and reason. Keeps only what the broker needs. One search only; not thread-safe.
 */
final class DirectoryEntries implements SearchResultListener {
  private static final long serialVersionUID = 1L;
  final Map<String, List<Map<String, Object>>> ads = new HashMap<>();
  final Map<String, Map<String, Double>> probes = new HashMap<>();
  int entries;
  int bad;
  String firstBad;

  @Override
  public void searchEntryReturned(SearchResultEntry e) {
    entries++;
    String key = e.getAttributeValue(Glue2Extensions.KEY_ATTRIBUTE);
    String value = e.getAttributeValue(Glue2Extensions.VALUE_ATTRIBUTE);
    try {
      if (value == null) {
        throw new IOException("no " + Glue2Extensions.VALUE_ATTRIBUTE);
      }
      if (Glue2Extensions.AD_KEY.equals(key)) {
        Map<String, Object> ad = Glue2Extensions.readAd(value);
        Endpoint ep = AdAttributes.endpoint(ad);
        Object site = ad.get(AdAttributes.HOSTNAME);
        String host = ep != null ? ep.host() : site instanceof String s ? s : null;
        if (host == null) {
          throw new IOException("ad names neither an endpoint nor a host name");
        }
        ads.computeIfAbsent(host.toLowerCase(Locale.ROOT), k -> new ArrayList<>()).add(ad);
      } else {
        Glue2Extensions.Probe p = Glue2Extensions.readProbe(value);
        probes.computeIfAbsent(p.hostname(), k -> new TreeMap<>()).put(p.series(), p.value());
      }
    } catch (IOException ex) {
      if (bad++ == 0) {
        firstBad = dn(e) + ": " + ex.getMessage();
      }
    }
  }

  private static String dn(SearchResultEntry e) {
    try {
      return new DN(e.getDN()).toString();
    } catch (LDAPException ex) {
      return e.getDN();
    }
  }

  @Override
  public void searchReferenceReturned(SearchResultReference r) {
    // referrals are not followed: a BDII answers from its own database
  }
}
