package org.braid.matchmaking;

import java.util.Locale;
import java.util.stream.Collectors;

/** Our side of the oracle's canonical value form (see oracle.py). */
final class Canonical {

  private static final int MAX_EXPAND = 3;

  private Canonical() {}

  /** Evaluates one case ("E\texpr" or "A\tad") the way oracle.py does. */
  static String of(String line) {
    int tab = line.indexOf('\t');
    String kind = line.substring(0, tab);
    String payload = line.substring(tab + 1);
    if (kind.equals("E")) {
      try {
        ClassAds.parseExpression(payload);
      } catch (ClassAdParseException e) {
        return "PARSEFAIL";
      }
      return canon(s -> Evaluation.evaluate(parse(s)), "(" + payload + ")", 0);
    }
    ClassAd ad;
    try {
      ad = ClassAds.parse(payload);
    } catch (ClassAdParseException e) {
      return "PARSEFAIL";
    }
    // oracle.py's ad.eval("r") evaluates a copy of r's expression (classad2's lookup returns a
    // copy) in the ad's scope. HTCondor tells reference cycles apart by the identity of the
    // expression being evaluated, so an ad written inside that copy is not the ad written inside
    // the stored r: do the same with a freshly parsed copy of r.
    Expr copyOfR = reparsedAttribute(payload, "r");
    return canon(
        s -> {
          if (s.equals("r")) {
            return copyOfR == null
                ? Evaluation.attribute(ad, "r", EvalOptions.DEFAULT)
                : Evaluation.evaluateIn(ad, copyOfR, EvalOptions.DEFAULT);
          }
          ClassAd withZ = ad.toBuilder().set("zz__", parse(s)).build();
          return Evaluation.attribute(withZ, "zz__", EvalOptions.DEFAULT);
        },
        "r",
        0);
  }

  /** Attribute {@code name} of the ad {@code text} parsed afresh: a copy with new identities. */
  static Expr reparsedAttribute(String text, String name) {
    try {
      return ClassAds.parse(text).lookup(name);
    } catch (ClassAdParseException e) {
      throw new IllegalStateException("ad parsed once but not twice: " + text, e);
    }
  }

  private static Expr parse(String s) {
    try {
      return ClassAds.parseExpression(s);
    } catch (ClassAdParseException e) {
      throw new IllegalStateException("generated path does not parse: " + s, e);
    }
  }

  interface Ev {
    Value eval(String path);
  }

  static String canon(Ev ev, String path, int depth) {
    Value v = ev.eval(path);
    if (v instanceof Value.UndefinedValue) {
      return "undefined";
    }
    if (v instanceof Value.ErrorValue) {
      return "error";
    }
    if (v instanceof Value.BooleanValue b) {
      return Boolean.toString(b.value());
    }
    if (v instanceof Value.IntegerValue i) {
      return "int:" + i.value();
    }
    if (v instanceof Value.RealValue r) {
      return "real:" + bits(r.value());
    }
    if (v instanceof Value.RelTimeValue r) {
      return "rel:" + bits(r.seconds());
    }
    if (v instanceof Value.AbsTimeValue a) {
      return "abs:" + a.epochSeconds();
    }
    if (v instanceof Value.StringValue s) {
      return "str:" + json(s.value());
    }
    if (v instanceof Value.ListValue l) {
      if (depth >= MAX_EXPAND) {
        return "list(" + l.size() + ")";
      }
      StringBuilder sb = new StringBuilder("list(" + l.size() + "):[");
      for (int k = 0; k < l.size(); k++) {
        if (k > 0) {
          sb.append(',');
        }
        sb.append(canon(ev, path + "[" + k + "]", depth + 1));
      }
      return sb.append(']').toString();
    }
    ClassAd ad = ((Value.ClassAdValue) v).ad();
    String names =
        ad.names().stream()
            .map(n -> n.toLowerCase(Locale.ROOT))
            .sorted()
            .collect(Collectors.joining(","));
    if (depth >= MAX_EXPAND) {
      return "ad:[" + names + "]";
    }
    StringBuilder sb = new StringBuilder("ad:[" + names + "]{");
    boolean first = true;
    for (String n : names.isEmpty() ? new String[0] : names.split(",")) {
      if (!first) {
        sb.append(',');
      }
      first = false;
      String quoted = "'" + n.replace("\\", "\\\\").replace("'", "\\'") + "'";
      sb.append(canon(ev, path + "." + quoted, depth + 1));
    }
    return sb.append('}').toString();
  }

  static String bits(double d) {
    if (Double.isNaN(d)) {
      return "nan";
    }
    return String.format("%016x", Double.doubleToRawLongBits(d));
  }

  /** Python's json.dumps with ensure_ascii. */
  static String json(String s) {
    StringBuilder sb = new StringBuilder("\"");
    for (int k = 0; k < s.length(); k++) {
      char c = s.charAt(k);
      switch (c) {
        case '"':
          sb.append("\\\"");
          break;
        case '\\':
          sb.append("\\\\");
          break;
        case '\n':
          sb.append("\\n");
          break;
        case '\r':
          sb.append("\\r");
          break;
        case '\t':
          sb.append("\\t");
          break;
        case '\b':
          sb.append("\\b");
          break;
        case '\f':
          sb.append("\\f");
          break;
        default:
          if (c < 0x20 || c > 0x7f) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
      }
    }
    return sb.append('"').toString();
  }
}
