package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {

  @Test
  void str_hostileText_readsBackUnchanged() throws Exception {
    String hostile = "a\"b\\c\n\r\t\u0001\u001f é \u2028 </script>";
    assertEquals(hostile, new ObjectMapper().readValue(Json.str(hostile), String.class));
    assertEquals("null", Json.str(null));
  }

  @Test
  void theReportsWarmUp_rendersAWholeReportOfMadeUpFiles() throws Exception {
    int length = DatasetReports.warmUp();
    assertTrue(length > 200 * DatasetReports.WARM_UP_FILES, length + " characters");
    // the same renderer as a job's report: the made-up one reads back
    List<DatasetFileReport> files =
        List.of(
            new DatasetFileReport(
                "warm-up/x.dat", 5, "fetched", 0.25, "ab", Map.of("s", 5L), null));
    String json =
        DatasetReports.json(
            new DatasetReport("x", Path.of("."), files, List.of(), Instant.EPOCH, 1, 5, 5, null));
    var tree = new ObjectMapper().readTree(json);
    assertEquals(0.25, tree.get("fileReports").get(0).get("seconds").asDouble());
    assertEquals("warm-up/x.dat", tree.get("fileReports").get(0).get("path").asText());
  }

  @Test
  void num3_writesWhatNumWrites() {
    double[] cases = {
      0,
      1,
      -1,
      0.5,
      0.05,
      0.005,
      0.001,
      0.0005,
      12.345,
      12.34,
      12.3,
      12.305,
      12.045,
      0.1 + 0.2,
      -2.5,
      56.484,
      9999999.999,
      1e7 + 0.5,
      1e-4,
      Double.NaN,
      Double.POSITIVE_INFINITY,
      1.0 / 3
    };
    for (double d : cases) {
      assertEquals(Json.num(d), Json.num3(new StringBuilder(), d).toString(), "" + d);
    }
    for (int m = 0; m < 200_000; m += 7) {
      double d = m / 1000.0;
      assertEquals(Json.num(d), Json.num3(new StringBuilder(), d).toString(), "" + d);
    }
  }

  @Test
  void str_appended_isTheSameLiteral_escapedOrNot() {
    for (String s :
        new String[] {
          "d00/s01/file 1 é.dat",
          "a\"b",
          "back\\slash",
          "tab\there",
          "\u0001",
          "\u007f \u2028 </script>",
          "",
          null
        }) {
      assertEquals(Json.str(s), Json.str(new StringBuilder("x"), s).substring(1), s);
    }
  }

  @Test
  void num_nonFinite_isNull() {
    assertEquals("null", Json.num(Double.NaN));
    assertEquals("3", Json.num(3.0));
    assertEquals("2.5", Json.num(2.5));
  }
}
