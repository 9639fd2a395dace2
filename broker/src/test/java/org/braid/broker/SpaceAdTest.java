package org.braid.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The storage ad takes a volume's space from the provider's ads (the real provider's part is {@code
 * SpaceAdSystemTest} in the system tests).
 */
class SpaceAdTest {

  @Test
  void pick_chosenAdWithoutSpace_takesItFromAnotherAdOfTheSameVolume() {
    Map<String, Object> mine =
        new java.util.LinkedHashMap<>(Map.of("volume", "/d", "peer", "me", "RDTransfers", 3L));
    Map<String, Object> other =
        Map.of(
            "volume", "/d", "peer", "x", "RDTransfers", 9L, "AvailableSpace", 7L, "TotalSpace", 8L);
    Map<String, Object> elsewhere = Map.of("volume", "/e", "AvailableSpace", 1L, "TotalSpace", 2L);
    Map<String, Object> ad =
        ProviderAdChoice.choose(
                List.of(elsewhere, mine, other), URI.create("http://h/d/f"), true, "me")
            .ad();
    assertEquals("me", ad.get("peer"));
    assertEquals(7L, ad.get("AvailableSpace"));
    assertEquals(8L, ad.get("TotalSpace"));
    assertFalse(mine.containsKey("AvailableSpace"), "the provider's answer is not changed");
  }
}
