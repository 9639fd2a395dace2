package org.braid.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.SearchResultEntry;
import java.time.Instant;
import java.util.Map;
import org.braid.infoprovider.wire.AdAttributes;
import org.braid.infoprovider.wire.Glue2Extensions;
import org.junit.jupiter.api.Test;

/** {@link DirectoryEntries}: a search's extension entries parsed into ads, probes and bad ones. */
class DirectoryEntriesTest {

  static SearchResultEntry entry(String dn, String key, String value) {
    return value == null
        ? new SearchResultEntry(
            dn, new Attribute[] {new Attribute(Glue2Extensions.KEY_ATTRIBUTE, key)}, new Control[0])
        : new SearchResultEntry(
            dn,
            new Attribute[] {
              new Attribute(Glue2Extensions.KEY_ATTRIBUTE, key),
              new Attribute(Glue2Extensions.VALUE_ATTRIBUTE, value)
            },
            new Control[0]);
  }

  @Test
  void adsByHost_probesBySite_badEntriesCountedWithTheFirstReason() {
    DirectoryEntries d = new DirectoryEntries();
    String ad = Glue2Extensions.adValue(Map.of(AdAttributes.HOSTNAME, "SE-A.example.org"));
    d.searchEntryReturned(entry("cn=a,o=glue", Glue2Extensions.AD_KEY, ad));
    String probe =
        Glue2Extensions.probeValue(
            new Glue2Extensions.Probe(
                "se-a.example.org", "disk/sda/util_percent", Instant.EPOCH, 42.0));
    d.searchEntryReturned(entry("cn=p,o=glue", Glue2Extensions.PROBE_KEY, probe));
    d.searchEntryReturned(entry("cn=bad,o=glue", Glue2Extensions.AD_KEY, null));
    d.searchEntryReturned(entry("cn=worse,o=glue", Glue2Extensions.AD_KEY, "{"));

    assertEquals(4, d.entries);
    assertEquals(2, d.bad);
    assertTrue(d.firstBad.startsWith("cn=bad,o=glue: no "), d.firstBad);
    assertEquals(1, d.ads.get("se-a.example.org").size());
    assertEquals(42.0, d.probes.get("se-a.example.org").get("disk/sda/util_percent"));
  }
}
