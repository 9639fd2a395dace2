package org.braid.coalloc;

import java.nio.file.Path;

class FileRangeSourceTest extends RangeSourceContractTest {
  @Override
  protected RangeSource create(Path f) {
    return new FileRangeSource(f.toUri());
  }
}
