package org.braid.provider.publish;

import java.util.Locale;

/** The DN layouts and schemas the provider's LDIF can take. */
public enum LdifLayout {
  /**
   * GLUE 2.0, as a BDII publishes it (the default): a storage service under {@code
   * GLUE2GroupID=resource,o=glue}, its endpoints and shares, and Braid's storage ads and probe
   * values in GLUE 2.0 extension entries ({@link Glue2Ldif}). Needs only the GLUE 2.0 schema.
   */
  GLUE2,
  /**
   * Paper 003's Figure 3: {@code cn=PEER,volume=...,hostname=HOST,dc=...,o=grid} with bandwidths in
   * kilobytes per second ({@link Figure3Ldif}). Needs Braid's schema ({@link
   * Figure3Schema#RESOURCE}).
   */
  FIGURE3;

  /**
   * Parses {@code glue2} or {@code figure3} (any case).
   *
   * @throws IllegalArgumentException naming the value and the choices
   */
  public static LdifLayout parse(String s) {
    for (LdifLayout l : values()) {
      if (l.name().equalsIgnoreCase(s == null ? "" : s.trim())) {
        return l;
      }
    }
    throw new IllegalArgumentException("LDIF layout must be glue2 or figure3: " + s);
  }

  /**
   * Renders a snapshot in this layout.
   *
   * @param site the GLUE 2.0 admin domain (site name), null for {@link #defaultSite}; unused by
   *     {@link #FIGURE3}
   * @param base the DN GLUE 2.0 entries go under, null for {@link Glue2Ldif#DEFAULT_BASE}; unused
   *     by {@link #FIGURE3}, whose entries end in {@code o=grid}
   */
  public String render(Snapshot snap, String site, String base) {
    if (this == FIGURE3) {
      return Figure3Ldif.render(snap);
    }
    return Glue2Ldif.render(
        snap,
        site == null ? defaultSite(snap.hostname()) : site,
        base == null ? Glue2Ldif.DEFAULT_BASE : base);
  }

  /**
   * The site name a host belongs to when none is given: its domain ({@code se.example.org} gives
   * {@code example.org}), or the name itself when it has no dot.
   */
  public static String defaultSite(String hostname) {
    int dot = hostname.indexOf('.');
    return dot > 0 && dot < hostname.length() - 1 ? hostname.substring(dot + 1) : hostname;
  }

  /** The name as written on the command line. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
