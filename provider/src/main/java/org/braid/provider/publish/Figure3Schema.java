package org.braid.provider.publish;

import java.util.ArrayList;
import java.util.List;
import org.braid.infoprovider.SizeClass;

/**
 * Braid's LDAP schema for the {@link Figure3Ldif} layout: the attribute types of paper 003's Figure
 * 3 ({@code hostname}, {@code volume}, {@code minrdbandwidth}, ...) and four structural object
 * classes ({@code braidHost}, {@code braidEndpoint}, {@code braidVolume}, {@code
 * braidStorageStats}). The package ships it in both forms slapd loads: {@value #RESOURCE} ({@code
 * include} in slapd.conf) and {@value #LDIF_RESOURCE} ({@code ldapadd} into {@code
 * cn=schema,cn=config}); a test keeps them equal to {@link #schema()} and {@link #ldif()}.
 *
 * <p>OIDs are under {@value #OID}, an arc derived from a UUID (ITU-T X.667), which needs no
 * registration: {@code .1.N} attribute types, {@code .2.N} object classes. Bandwidths are strings
 * such as {@code 6000K} (decimal kilobytes per second), counts and spaces integers.
 */
public final class Figure3Schema {

  /** The schema in slapd.conf form, as a class-path resource. */
  public static final String RESOURCE = "/ldap/braid-figure3.schema";

  /** The schema in cn=config LDIF form, as a class-path resource. */
  public static final String LDIF_RESOURCE = "/ldap/braid-figure3.ldif";

  /** The OID arc of Braid's schema. */
  public static final String OID = "2.25.137548689480977609216312329107234620067";

  private static final String STRING = "1.3.6.1.4.1.1466.115.121.1.15";
  private static final String INTEGER = "1.3.6.1.4.1.1466.115.121.1.27";

  private Figure3Schema() {}

  /** One attribute type: name, description, whether integer, whether case matters. */
  private record Attr(String name, String desc, boolean integer, boolean exact) {}

  private static List<Attr> attributes() {
    List<Attr> a = new ArrayList<>();
    a.add(new Attr("hostname", "host name of the storage server", false, false));
    a.add(new Attr("volume", "volume (path prefix or name)", false, true));
    a.add(new Attr("endpoint", "endpoint URL (scheme, host, port, path)", false, true));
    a.add(new Attr("gridftpurl", "GridFTP URL of the endpoint", false, true));
    a.add(new Attr("url", "URL of the endpoint", false, true));
    a.add(new Attr("endpointscheme", "endpoint URL scheme", false, false));
    a.add(new Attr("endpointhost", "endpoint host", false, false));
    a.add(new Attr("endpointport", "endpoint port", true, false));
    a.add(new Attr("endpointpath", "endpoint path prefix", false, true));
    a.add(new Attr("availablespace", "usable bytes of the volume", true, false));
    a.add(new Attr("totalspace", "total bytes of the volume", true, false));
    for (String op : List.of("rd", "wr")) {
      String what = op.equals("rd") ? "read" : "write";
      for (String stat : List.of("min", "max", "avg", "std", "med", "last")) {
        a.add(new Attr(stat + op + "bandwidth", stat + " " + what + " bandwidth, K", false, false));
      }
      a.add(new Attr(op + "transfers", what + " transfers", true, false));
      for (SizeClass sc : SizeClass.values()) {
        String r = sc.ldifSuffix();
        if (sc != SizeClass.ALL) {
          a.add(
              new Attr(
                  "avg" + op + "bandwidth" + r, "avg " + what + " bandwidth " + r, false, false));
          a.add(new Attr(op + "transfers" + r, what + " transfers " + r, true, false));
        }
        String in = r.isEmpty() ? "" : " " + r;
        a.add(new Attr("pred" + op + "bandwidth" + r, "forecast " + what + in, false, false));
        a.add(
            new Attr("pred" + op + "errorpct" + r, "forecast error % " + what + in, false, false));
        a.add(
            new Attr(
                "pred" + op + "confidencepct" + r,
                "forecast error CI % " + what + in,
                false,
                false));
      }
    }
    return a;
  }

  private static List<String> attributeTypes() {
    List<String> out = new ArrayList<>();
    int n = 0;
    for (Attr a : attributes()) {
      String match =
          a.integer()
              ? "EQUALITY integerMatch ORDERING integerOrderingMatch SYNTAX " + INTEGER
              : a.exact()
                  ? "EQUALITY caseExactMatch SUBSTR caseExactSubstringsMatch SYNTAX " + STRING
                  : "EQUALITY caseIgnoreMatch SUBSTR caseIgnoreSubstringsMatch SYNTAX " + STRING;
      out.add(
          "( "
              + OID
              + ".1."
              + (++n)
              + " NAME '"
              + a.name()
              + "' DESC 'Braid: "
              + a.desc()
              + "' "
              + match
              + " SINGLE-VALUE )");
    }
    return out;
  }

  private static List<String> objectClasses() {
    List<String> stats = new ArrayList<>();
    for (Attr a : attributes()) {
      if (!a.name().equals("endpoint")) {
        stats.add(a.name());
      }
    }
    return List.of(
        "( "
            + OID
            + ".2.1 NAME 'braidHost' DESC 'Braid: a storage host' SUP top STRUCTURAL"
            + " MUST hostname )",
        "( "
            + OID
            + ".2.2 NAME 'braidEndpoint' DESC 'Braid: an endpoint of a host' SUP top STRUCTURAL"
            + " MUST endpoint MAY ( hostname $ gridftpurl $ url $ endpointscheme $ endpointhost"
            + " $ endpointport $ endpointpath ) )",
        "( "
            + OID
            + ".2.3 NAME 'braidVolume' DESC 'Braid: a volume' SUP top STRUCTURAL MUST volume"
            + " MAY ( hostname $ availablespace $ totalspace ) )",
        "( "
            + OID
            + ".2.4 NAME 'braidStorageStats' DESC 'Braid: transfer statistics for one peer'"
            + " SUP top STRUCTURAL MUST cn MAY ( "
            + String.join(" $ ", stats)
            + " ) )");
  }

  /** The schema in slapd.conf form ({@code attributetype} and {@code objectclass} lines). */
  public static String schema() {
    StringBuilder sb = new StringBuilder();
    sb.append("# Braid: LDAP schema of the figure3 LDIF layout (braid provider ldif --layout")
        .append(" figure3).\n# Generated by org.braid.provider.publish.Figure3Schema; needs")
        .append(" core.schema (cn) and cosine.schema (domain).\n\n");
    for (String a : attributeTypes()) {
      sb.append("attributetype ").append(a).append('\n');
    }
    sb.append('\n');
    for (String o : objectClasses()) {
      sb.append("objectclass ").append(o).append('\n');
    }
    return sb.toString();
  }

  /** The schema as a cn=config entry, for {@code ldapadd -Y EXTERNAL -H ldapi:///}. */
  public static String ldif() {
    StringBuilder sb = new StringBuilder();
    sb.append("# Braid: LDAP schema of the figure3 LDIF layout, for cn=config.\n")
        .append("# Generated by org.braid.provider.publish.Figure3Schema.\n")
        .append("dn: cn=braid-figure3,cn=schema,cn=config\n")
        .append("objectClass: olcSchemaConfig\n")
        .append("cn: braid-figure3\n");
    for (String a : attributeTypes()) {
      sb.append("olcAttributeTypes: ").append(a).append('\n');
    }
    for (String o : objectClasses()) {
      sb.append("olcObjectClasses: ").append(o).append('\n');
    }
    return sb.toString();
  }
}
