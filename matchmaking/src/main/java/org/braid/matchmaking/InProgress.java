package org.braid.matchmaking;

import java.util.HashSet;

/**
 * The attributes an evaluation is in the middle of evaluating, each the identity of the attribute's
 * expression and of the ad it was found in (a tree shared between ads is tracked once per ad), as
 * HTCondor's EvalState tracks them: meeting one again is a reference cycle.
 */
final class InProgress {

  private record Key(Expr expr, ClassAd ad) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && k.expr == expr && k.ad == ad;
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(expr) * 31 + System.identityHashCode(ad);
    }
  }

  private final HashSet<Key> keys = new HashSet<>(8);

  /** Marks the attribute as being evaluated; false if it already is (a cycle). */
  boolean enter(Expr expr, ClassAd ad) {
    return keys.add(new Key(expr, ad));
  }

  /** Unmarks the attribute once its evaluation is over. */
  void leave(Expr expr, ClassAd ad) {
    keys.remove(new Key(expr, ad));
  }
}
