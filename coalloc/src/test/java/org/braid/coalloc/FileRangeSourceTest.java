package org.braid.coalloc;

import java.nio.file.Path;

class FileRangeSourceTest extends RangeSourceContractTest {
  @Override
  RangeSource create(Path f) {
    return new FileRangeSource(f.toUri());
  }
}
