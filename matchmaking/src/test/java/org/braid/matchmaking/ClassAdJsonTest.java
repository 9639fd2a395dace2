package org.braid.matchmaking;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class ClassAdJsonTest {

  @Test
  void toJson_usesHtcondorsForm() throws Exception {
    ClassAd ad =
        ClassAds.parse(
            "[ i = 1; r = 1.5; s = \"a\\\"b\"; b = true; u = undefined; e = error; "
                + "l = { 1, \"x\", { 2 } }; n = [ x = 1 ]; expr = other.x > 5; inf = real(\"INF\") ]");
    assertEquals(
        "{\"i\":1,\"r\":1.5,\"s\":\"a\\\"b\",\"b\":true,\"u\":null,\"e\":\"/Expr(error)/\","
            + "\"l\":[1,\"x\",[2]],\"n\":{\"x\":1},\"expr\":\"/Expr(other.x > 5)/\","
            + "\"inf\":\"/Expr(real(\\\"INF\\\"))/\"}",
        ClassAdJson.toJson(ad, false));
  }

  @Test
  void fromJson_readsHtcondorsOutput_includingEscapedSlashes() throws Exception {
    ClassAd ad =
        ClassAdJson.fromJson(
            "{\"a\": 1, \"b\": 2.5, \"c\": \"x\", \"d\": null, \"e\": [1, {\"f\": true}], "
                + "\"g\": \"\\/Expr(1 + 2)\\/\"}");
    assertEquals(Value.of(1L), ad.evaluate("a"));
    assertEquals(Value.of(2.5), ad.evaluate("b"));
    assertEquals(Value.UNDEFINED, ad.evaluate("d"));
    assertEquals(Value.of(3L), ad.evaluate("g"));
    assertEquals("{ 1,[ f = true ] }", ad.lookup("e").unparse());
  }

  @Test
  void json_roundTripsAds() throws Exception {
    List<ClassAd> ads =
        ClassAds.parseAll(
            "[ a = 0.1; b = -0.0; c = { 1, [ d = x + 1 ] }; e = absTime(\"2020-01-01T00:00:00Z\") ]"
                + "[ z = \"é\\n\"; y = 9223372036854775807 ]",
            ParseOptions.DEFAULT);
    assertEquals(ads, ClassAdJson.fromJsonAll(ClassAdJson.toJson(ads, true)));
  }

  @Test
  void badJson_isAParseErrorWithPosition() {
    ClassAdParseException e =
        assertThrows(ClassAdParseException.class, () -> ClassAdJson.fromJson("{\n \"a\": [1,\n}"));
    assertEquals(3, e.line());
  }
}
