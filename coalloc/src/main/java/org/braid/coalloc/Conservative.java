package org.braid.coalloc;

/** Paper 003, 4.3.3: k equal blocks, the next one to whoever delivers. */
final class Conservative extends BlockPolicy {
  private final int k;
  private long unit;

  Conservative(int k) {
    this.k = k;
  }

  @Override
  void plan(PolicyView s) {
    unit = Math.max(1, (s.size() + k - 1) / k);
  }

  @Override
  long blockSize(Flow f, PolicyView s, long now) {
    return unit;
  }
}
