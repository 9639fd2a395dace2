package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DatasetNamesTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "a",
        "run 42/file with spaces.h5",
        "données/été €.bin",
        "日本/データ.dat",
        "$(rm -rf ~)/`id`;echo 'x' \"y\" & | * ? < > #.txt",
        "dir/.hidden",
        "a~b/~c",
        "x.part",
      })
  void check_acceptsRelativeNamesWithSpacesUnicodeAndMetacharacters(String name) {
    assertEquals(name, DatasetNames.check(name));
    assertTrue(DatasetNames.valid(name));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "/etc/passwd",
        "../up",
        "a/../../b",
        "a/./b",
        "a//b",
        "a/",
        "~/x",
        "C:/win",
        "c:x",
        "a\\b",
        "a\nb",
        "a\u0000b",
        "a\u001bb",
        "a\u007fb",
        "a\u0085b",
        ".",
        "..",
      })
  void check_refusesTraversalAbsoluteAndControlCharacters(String name) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> DatasetNames.check(name));
    assertFalse(e.getMessage().contains("\n"), e.getMessage());
    assertFalse(e.getMessage().contains("\u001b"), e.getMessage());
  }

  @Test
  void check_refusesUnpairedSurrogatesAndOverlongSegments() {
    assertFalse(DatasetNames.valid("a\ud800b"));
    assertFalse(DatasetNames.valid("a\udc00"));
    assertTrue(DatasetNames.valid("a\ud83d\ude00b"));
    assertTrue(DatasetNames.valid("x".repeat(255)));
    assertFalse(DatasetNames.valid("x".repeat(256)));
    // 128 two-byte characters are 256 bytes
    assertFalse(DatasetNames.valid("é".repeat(128)));
    assertFalse(DatasetNames.valid("a/".repeat(2048) + "a"));
  }

  @Test
  void hasTraversalSegment_findsEmptyDotAndDotDotSegmentsOnly() {
    for (String bad : List.of("", "/a", "a/", "a//b", ".", "a/./b", "..", "a/../b", "a/..")) {
      assertTrue(DatasetNames.hasTraversalSegment(bad), bad);
    }
    for (String ok : List.of("a", "a/b", ".a", "a/..b", "...", "a/.b./c", "..a/b")) {
      assertFalse(DatasetNames.hasTraversalSegment(ok), ok);
    }
  }

  @Test
  void shown_escapesControlCharactersAndTruncates() {
    assertEquals("'a\\x1b[2Jb\\x0a'", DatasetNames.shown("a\u001b[2Jb\n"));
    assertTrue(DatasetNames.shown("y".repeat(500)).endsWith("...'"));
  }

  @Test
  void resolve_percentEncodesEachSegmentAndRoundTripsThroughFileUrls() {
    URI u = DatasetNames.resolve(URI.create("http://h:80/data"), "a b/ü#?%.bin");
    assertEquals("http://h:80/data/a%20b/%C3%BC%23%3F%25.bin", u.toString());
    assertEquals("/data/a b/ü#?%.bin", u.getPath());
    Path base = Path.of("/tmp/x y");
    URI f = DatasetNames.resolve(base.toUri(), "$HOME/`id` ü.txt");
    assertEquals(base.resolve("$HOME/`id` ü.txt"), Path.of(f));
  }
}
