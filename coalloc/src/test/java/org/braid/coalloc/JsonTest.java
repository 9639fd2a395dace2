package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class JsonTest {

  @Test
  void str_hostileText_readsBackUnchanged() throws Exception {
    String hostile = "a\"b\\c\n\r\t\u0001\u001f é \u2028 </script>";
    assertEquals(hostile, new ObjectMapper().readValue(Json.str(hostile), String.class));
    assertEquals("null", Json.str(null));
  }

  @Test
  void num_nonFinite_isNull() {
    assertEquals("null", Json.num(Double.NaN));
    assertEquals("3", Json.num(3.0));
    assertEquals("2.5", Json.num(2.5));
  }
}
