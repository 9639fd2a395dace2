package org.braid.broker.catalog;

import java.nio.charset.StandardCharsets;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Any input gives a catalog or a CatalogException: never another exception, never a hang. */
class CatalogFuzzTest {

  static final String ML = CatalogsTest.ML;

  @Provide
  Arbitrary<String> mutatedMetalink() {
    return Arbitraries.integers()
        .between(0, ML.length() - 1)
        .list()
        .ofMaxSize(8)
        .flatMap(
            cuts ->
                Arbitraries.strings()
                    .withChars("<>&;\"'=/!?[]%x .-\u0000\u00e9")
                    .ofMaxLength(6)
                    .list()
                    .ofSize(cuts.size())
                    .map(
                        ins -> {
                          StringBuilder sb = new StringBuilder(ML);
                          for (int i = 0; i < cuts.size(); i++) {
                            int at = Math.min(cuts.get(i), sb.length());
                            sb.insert(at, ins.get(i));
                          }
                          return sb.toString();
                        }));
  }

  @Property(tries = 300)
  void metalink_mutated_catalogOrCatalogException(@ForAll("mutatedMetalink") String xml) {
    try {
      Catalogs.parseMetalink(xml.getBytes(StandardCharsets.UTF_8), "m", CatalogLimits.DEFAULT);
    } catch (CatalogException expected) {
      // a clear error is fine
    }
  }

  @Property(tries = 300)
  void jsonAndYaml_arbitrary_catalogOrCatalogException(@ForAll String text) {
    for (boolean json : new boolean[] {true, false}) {
      try {
        Catalogs.parseCatalog(
            text.getBytes(StandardCharsets.UTF_8), "c", json, CatalogLimits.DEFAULT);
      } catch (CatalogException expected) {
        // a clear error is fine
      }
    }
  }

  @Property(tries = 300)
  void urlList_arbitrary_catalogOrCatalogException(@ForAll String text) {
    try {
      Catalogs.parseUrlList(text, "l", "n", CatalogLimits.DEFAULT);
    } catch (CatalogException expected) {
      // a clear error is fine
    }
  }
}
