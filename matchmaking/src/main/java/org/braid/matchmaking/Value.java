package org.braid.matchmaking;

import java.util.List;
import java.util.Objects;

/**
 * The value of a ClassAd expression: undefined, error, boolean, integer, real, string, list,
 * ClassAd, absolute time or relative time.
 *
 * <p>Undefined and error are ordinary values, never exceptions. Lists and ClassAds are lazy, as in
 * HTCondor's library: a list value holds the unevaluated element expressions together with the
 * scope they were written in; {@link Evaluation#elements(ListValue)} evaluates them.
 *
 * <p>All implementations are immutable and thread-safe.
 */
public sealed interface Value
    permits Value.UndefinedValue,
        Value.ErrorValue,
        Value.BooleanValue,
        Value.IntegerValue,
        Value.RealValue,
        Value.StringValue,
        Value.ListValue,
        Value.ClassAdValue,
        Value.AbsTimeValue,
        Value.RelTimeValue {

  /** The undefined value. */
  UndefinedValue UNDEFINED = new UndefinedValue();

  /** The error value. */
  ErrorValue ERROR = new ErrorValue();

  /** The boolean {@code true}. */
  BooleanValue TRUE = new BooleanValue(true);

  /** The boolean {@code false}. */
  BooleanValue FALSE = new BooleanValue(false);

  /** Returns the boolean value {@code b}. */
  static BooleanValue of(boolean b) {
    return b ? TRUE : FALSE;
  }

  /** Returns the integer value {@code i}. */
  static IntegerValue of(long i) {
    return new IntegerValue(i);
  }

  /** Returns the real value {@code r}. */
  static RealValue of(double r) {
    return new RealValue(r);
  }

  /**
   * Returns the string value {@code s}.
   *
   * @throws NullPointerException if {@code s} is null
   */
  static StringValue of(String s) {
    return new StringValue(s);
  }

  /** True for undefined and error, the values that strict operators propagate. */
  default boolean isExceptional() {
    return this instanceof UndefinedValue || this instanceof ErrorValue;
  }

  /**
   * This value as a ClassAd literal that HTCondor's parser reads back to the same value, for
   * example {@code "a\"b"}, {@code { 1,2 }}, {@code real("INF")}.
   */
  default String unparse() {
    return Unparser.value(this);
  }

  /** The type name used in messages: "undefined", "integer", "list", ... */
  String typeName();

  /** The undefined value: an attribute that does not exist, or a result that is unknown. */
  record UndefinedValue() implements Value {
    @Override
    public String typeName() {
      return "undefined";
    }

    @Override
    public String toString() {
      return "undefined";
    }
  }

  /** The error value: a type mismatch, a division by zero, a bad argument. */
  record ErrorValue() implements Value {
    @Override
    public String typeName() {
      return "error";
    }

    @Override
    public String toString() {
      return "error";
    }
  }

  /** A boolean. */
  record BooleanValue(boolean value) implements Value {
    @Override
    public String typeName() {
      return "boolean";
    }

    @Override
    public String toString() {
      return Boolean.toString(value);
    }
  }

  /** A 64-bit signed integer; arithmetic wraps around as in HTCondor. */
  record IntegerValue(long value) implements Value {
    @Override
    public String typeName() {
      return "integer";
    }

    @Override
    public String toString() {
      return Long.toString(value);
    }
  }

  /** A double-precision real. */
  record RealValue(double value) implements Value {
    @Override
    public String typeName() {
      return "real";
    }

    @Override
    public String toString() {
      return unparse();
    }
  }

  /** A string of Unicode characters. */
  record StringValue(String value) implements Value {
    /** Checks the argument. */
    public StringValue {
      Objects.requireNonNull(value, "value");
    }

    @Override
    public String typeName() {
      return "string";
    }

    @Override
    public String toString() {
      return unparse();
    }
  }

  /**
   * A list: element expressions and the scope they are evaluated in. Use {@link
   * Evaluation#elements(ListValue)} for the element values.
   */
  final class ListValue implements Value {
    private final List<Expr> items;
    final Env env;

    ListValue(List<Expr> items, Env env) {
      this.items = List.copyOf(items);
      this.env = env;
    }

    /** Returns a list value of the given literal values, with no enclosing scope. */
    public static ListValue of(List<? extends Value> values) {
      return new ListValue(values.stream().map(Expr::literalOf).toList(), null);
    }

    /** The element expressions, unevaluated. */
    public List<Expr> items() {
      return items;
    }

    /** The number of elements. */
    public int size() {
      return items.size();
    }

    @Override
    public String typeName() {
      return "list";
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof ListValue l && l.items.equals(items);
    }

    @Override
    public int hashCode() {
      return items.hashCode();
    }

    @Override
    public String toString() {
      return unparse();
    }
  }

  /** A ClassAd value: the ad and the scope that encloses it (its parent). */
  final class ClassAdValue implements Value {
    private final ClassAd ad;
    final Env parent;

    ClassAdValue(ClassAd ad, Env parent) {
      this.ad = Objects.requireNonNull(ad, "ad");
      this.parent = parent;
    }

    /** Returns a value for a top-level ad (no enclosing scope). */
    public static ClassAdValue of(ClassAd ad) {
      return new ClassAdValue(ad, null);
    }

    /** The ad. */
    public ClassAd ad() {
      return ad;
    }

    @Override
    public String typeName() {
      return "classad";
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof ClassAdValue c && c.ad.equals(ad);
    }

    @Override
    public int hashCode() {
      return ad.hashCode();
    }

    @Override
    public String toString() {
      return unparse();
    }
  }

  /**
   * An absolute time: seconds since the Unix epoch (UTC) and the time zone offset in seconds east
   * of UTC it is shown in.
   */
  record AbsTimeValue(long epochSeconds, int offsetSeconds) implements Value {
    @Override
    public String typeName() {
      return "abstime";
    }

    @Override
    public String toString() {
      return unparse();
    }
  }

  /** A relative time (a duration) in seconds. */
  record RelTimeValue(double seconds) implements Value {
    @Override
    public String typeName() {
      return "reltime";
    }

    @Override
    public String toString() {
      return unparse();
    }
  }
}
