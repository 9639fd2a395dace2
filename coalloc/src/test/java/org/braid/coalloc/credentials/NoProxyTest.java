package org.braid.coalloc.credentials;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class NoProxyTest {
  @Test
  void star_matchesEveryHost() {
    assertTrue(NoProxy.matches("*", "storage.example.org"));
    assertTrue(NoProxy.matches("a.org, *", "127.0.0.1"));
  }

  @Test
  void domain_matchesItselfAndSubdomains_notOtherNamesEndingAlike() {
    for (String entry : new String[] {"example.org", ".example.org", "EXAMPLE.org:8443"}) {
      assertTrue(NoProxy.matches(entry, "example.org"), entry);
      assertTrue(NoProxy.matches(entry, "se01.Example.org"), entry);
      assertFalse(NoProxy.matches(entry, "badexample.org"), entry);
      assertFalse(NoProxy.matches(entry, "example.org.evil.net"), entry);
    }
  }

  @Test
  void listSeparatedByCommasOrSpaces() {
    assertTrue(NoProxy.matches("a.org,b.org", "x.b.org"));
    assertTrue(NoProxy.matches("a.org b.org", "b.org"));
    assertFalse(NoProxy.matches("a.org,,b.org", "c.org"));
    assertFalse(NoProxy.matches("", "c.org"));
    assertFalse(NoProxy.matches(null, "c.org"));
  }

  @Test
  void addresses_exactOrWithPrefixLength() {
    assertTrue(NoProxy.matches("127.0.0.1", "127.0.0.1"));
    assertFalse(NoProxy.matches("127.0.0.1", "127.0.0.2"));
    assertTrue(NoProxy.matches("10.0.0.0/8", "10.200.3.4"));
    assertFalse(NoProxy.matches("10.0.0.0/8", "11.0.0.1"));
    assertTrue(NoProxy.matches("192.168.1.0/23", "192.168.0.7"));
    assertFalse(NoProxy.matches("192.168.1.0/24", "192.168.0.7"));
    assertTrue(NoProxy.matches("::1", "[::1]"));
    assertTrue(NoProxy.matches("fd00::/8", "fd12::5"));
    // a suffix is not an address match: 0.0.1 is not a domain of 10.0.0.1
    assertFalse(NoProxy.matches("0.0.1", "10.0.0.1"));
    // a prefix length on a name matches nothing
    assertFalse(NoProxy.matches("example.org/8", "example.org"));
  }
}
