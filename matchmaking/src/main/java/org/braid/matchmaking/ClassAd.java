package org.braid.matchmaking;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * An immutable ClassAd: attribute names bound to expressions. Names are case-insensitive; the
 * spelling and order of first definition are kept for unparsing. Redefining a name replaces its
 * expression in place.
 *
 * <p>Instances are immutable and thread-safe. Build one with {@link #builder()} or parse one with
 * {@link ClassAds#parse(String)}.
 */
public final class ClassAd {

  private static final ClassAd EMPTY = new ClassAd(new String[0], new Expr[0]);

  // Small ads (the common case) are searched linearly; larger ones get hash indexes.
  private static final int LINEAR_MAX = 12;

  private final List<String> names;
  private final List<Expr> exprs;
  private final String[] nameArray;
  private final Expr[] exprArray;
  // Exact spelling first (no allocation), then the lower-cased name; null for small ads.
  private final Map<String, Integer> byExactName;
  private final Map<String, Integer> byLowerName;

  private ClassAd(String[] names, Expr[] exprs) {
    this.nameArray = names;
    this.exprArray = exprs;
    this.names = Collections.unmodifiableList(Arrays.asList(names));
    this.exprs = Collections.unmodifiableList(Arrays.asList(exprs));
    int n = names.length;
    if (n <= LINEAR_MAX) {
      this.byExactName = null;
      this.byLowerName = null;
      return;
    }
    this.byExactName = new HashMap<>(n * 2);
    this.byLowerName = new HashMap<>(n * 2);
    for (int i = 0; i < n; i++) {
      byExactName.put(names[i], i);
      byLowerName.put(names[i].toLowerCase(Locale.ROOT), i);
    }
  }

  /** A small ad from distinct names, without the builder's checks (internal use). */
  static ClassAd ofDistinct(String[] names, Expr[] exprs) {
    return new ClassAd(names, exprs);
  }

  /** The ad with no attributes. */
  public static ClassAd empty() {
    return EMPTY;
  }

  /** Returns a new builder for an ad. */
  public static Builder builder() {
    return new Builder();
  }

  /** Returns a builder holding this ad's attributes, to derive a changed copy. */
  public Builder toBuilder() {
    Builder b = new Builder();
    for (int i = 0; i < names.size(); i++) {
      b.set(names.get(i), exprs.get(i));
    }
    return b;
  }

  /** The number of attributes. */
  public int size() {
    return names.size();
  }

  /** The attribute names in definition order, as first spelled. */
  public List<String> names() {
    return names;
  }

  /** The attributes in definition order (names as first spelled). */
  public Map<String, Expr> attributes() {
    Map<String, Expr> m = new LinkedHashMap<>();
    for (int i = 0; i < names.size(); i++) {
      m.put(names.get(i), exprs.get(i));
    }
    return Collections.unmodifiableMap(m);
  }

  /**
   * The expression bound to {@code name} (case-insensitive), or null when there is none.
   *
   * @throws NullPointerException if {@code name} is null
   */
  public Expr lookup(String name) {
    if (byExactName == null) {
      String[] ns = nameArray;
      for (int k = 0; k < ns.length; k++) {
        if (ns[k].equals(name)) {
          return exprArray[k];
        }
      }
      for (int k = 0; k < ns.length; k++) {
        if (ns[k].equalsIgnoreCase(name)) {
          return exprArray[k];
        }
      }
      return null;
    }
    Integer i = byExactName.get(name);
    if (i == null) {
      i = byLowerName.get(name.toLowerCase(Locale.ROOT));
      if (i == null) {
        return null;
      }
    }
    return exprs.get(i);
  }

  /** True if the ad binds {@code name} (case-insensitive). */
  public boolean contains(String name) {
    return lookup(name) != null;
  }

  /**
   * Evaluates attribute {@code name} of this ad as a top-level ad (strict scoping, the default
   * options).
   *
   * @throws NullPointerException if {@code name} is null
   */
  public Value evaluate(String name) {
    return Evaluation.attribute(this, name, EvalOptions.DEFAULT);
  }

  /** The ad in compact ClassAd syntax, {@code [ a = 1; b = "x" ]}. */
  public String unparse() {
    return Unparser.ad(this);
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof ClassAd other) || other.names.size() != names.size()) {
      return false;
    }
    for (int i = 0; i < names.size(); i++) {
      Expr e = other.lookup(names.get(i));
      if (e == null || !e.equals(exprs.get(i))) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    int h = 0;
    for (int i = 0; i < names.size(); i++) {
      h += names.get(i).toLowerCase(Locale.ROOT).hashCode() ^ exprs.get(i).hashCode();
    }
    return h;
  }

  @Override
  public String toString() {
    return unparse();
  }

  /** Builds a {@link ClassAd}. Not thread-safe. */
  public static final class Builder {
    private final List<String> names = new ArrayList<>();
    private final List<Expr> exprs = new ArrayList<>();
    private final Map<String, Integer> index = new HashMap<>();

    private Builder() {}

    /**
     * Binds {@code name} to {@code expr}, replacing an earlier binding of the same name in any
     * case.
     *
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if the name is empty
     */
    public Builder set(String name, Expr expr) {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(expr, "expr");
      if (name.isEmpty()) {
        throw new IllegalArgumentException("attribute name must not be empty");
      }
      String key = name.toLowerCase(Locale.ROOT);
      Integer i = index.get(key);
      if (i == null) {
        index.put(key, names.size());
        names.add(name);
        exprs.add(expr);
      } else {
        exprs.set(i, expr);
      }
      return this;
    }

    /** Binds {@code name} to a literal value (lists and ads become list and ad expressions). */
    public Builder set(String name, Value value) {
      return set(name, Expr.literalOf(Objects.requireNonNull(value, "value")));
    }

    /** Binds {@code name} to an integer. */
    public Builder set(String name, long value) {
      return set(name, Value.of(value));
    }

    /** Binds {@code name} to a real. */
    public Builder set(String name, double value) {
      return set(name, Value.of(value));
    }

    /** Binds {@code name} to a string. */
    public Builder set(String name, String value) {
      return set(name, Value.of(value));
    }

    /** Binds {@code name} to a boolean. */
    public Builder set(String name, boolean value) {
      return set(name, Value.of(value));
    }

    /** Removes the binding of {@code name}, if any. */
    public Builder remove(String name) {
      Integer i = index.remove(name.toLowerCase(Locale.ROOT));
      if (i != null) {
        names.remove((int) i);
        exprs.remove((int) i);
        index.clear();
        for (int j = 0; j < names.size(); j++) {
          index.put(names.get(j).toLowerCase(Locale.ROOT), j);
        }
      }
      return this;
    }

    /** Returns the ad. */
    public ClassAd build() {
      if (names.isEmpty()) {
        return EMPTY;
      }
      return new ClassAd(names.toArray(new String[0]), exprs.toArray(new Expr[0]));
    }
  }
}
