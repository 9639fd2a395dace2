package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.braid.cli.mirror.Mirror;

/** The range-source contract kept over near connections ({@link NearHttp}): after a probe. */
class NearHttpRangeSourceTest extends RangeSourceContractTest {
  Mirror mirror;

  @Override
  protected RangeSource create(Path f) throws Exception {
    mirror = Mirror.builder(f).start();
    HttpRangeSource s = new HttpRangeSource(mirror.uri(), SourceOptions.DEFAULT);
    s.probe();
    assertTrue(s.near(), "a loopback replica answering directly is read over near connections");
    return s;
  }

  @Override
  protected void cleanup() {
    mirror.close();
  }
}
