package org.braid.coalloc;

import java.nio.file.Path;
import org.braid.cli.mirror.Mirror;

class HttpRangeSourceTest extends RangeSourceContractTest {
  Mirror mirror;

  @Override
  protected RangeSource create(Path f) throws Exception {
    mirror = Mirror.builder(f).start();
    return new HttpRangeSource(mirror.uri(), SourceOptions.DEFAULT);
  }

  @Override
  protected void cleanup() {
    mirror.close();
  }
}
