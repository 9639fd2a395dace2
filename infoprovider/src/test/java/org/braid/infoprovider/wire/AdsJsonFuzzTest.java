package org.braid.infoprovider.wire;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Assertions;

/** Whatever a provider answers gives ads with finite, non-negative numbers or an IOException. */
class AdsJsonFuzzTest {

  @Property(tries = 500)
  void parse_arbitrary_adsOrIOException(@ForAll String body) {
    check(body);
    check("[{\"a\":" + body + "}]");
    check("[" + body + "]");
  }

  static void check(String body) {
    try {
      List<Map<String, Object>> ads = AdsJson.parse(body.getBytes(StandardCharsets.UTF_8));
      for (Map<String, Object> ad : ads) {
        for (Object v : ad.values()) {
          if (v instanceof Double) {
            Assertions.assertTrue(Double.isFinite((Double) v) && (Double) v >= 0);
          }
        }
      }
    } catch (IOException expected) {
      // skipped with a reason
    }
    try {
      SeriesJson.readNames(body.getBytes(StandardCharsets.UTF_8));
    } catch (IOException expected) {
      // skipped
    }
    try {
      SeriesJson.read(body.getBytes(StandardCharsets.UTF_8));
    } catch (IOException expected) {
      // skipped
    }
  }
}
