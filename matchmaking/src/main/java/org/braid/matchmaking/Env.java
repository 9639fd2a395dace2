package org.braid.matchmaking;

/** A scope: an ad and the scope that encloses it (null at the top). Immutable. */
final class Env {
  final ClassAd ad;
  final Env parent;

  Env(ClassAd ad, Env parent) {
    this.ad = ad;
    this.parent = parent;
  }

  /** The outermost scope of this chain. */
  Env top() {
    Env e = this;
    while (e.parent != null) {
      e = e.parent;
    }
    return e;
  }

  Value.ClassAdValue asValue() {
    return new Value.ClassAdValue(ad, parent);
  }
}
