package org.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.braid.broker.catalog.CatalogLimits;
import org.braid.broker.catalog.Catalogs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The input list of {@code get -i LIST}, read while the command line is built. */
class EarlyInputListTest {
  @TempDir Path dir;

  @Test
  void listPath_onlyForGetWithOneInputList() {
    assertEquals(Path.of("l.txt"), EarlyInputList.listPath("get", "-i", "l.txt", "-d", "out"));
    assertEquals(
        Path.of("l.txt"), EarlyInputList.listPath("get", "-d", "o", "--input-file", "l.txt"));
    assertEquals(Path.of("l.txt"), EarlyInputList.listPath("get", "--input-file=l.txt", "-d", "o"));
    assertNull(EarlyInputList.listPath("rank", "-i", "l.txt", "-d", "o"));
    assertNull(EarlyInputList.listPath("get", "-i", "a", "-i", "b"), "given twice");
    assertNull(EarlyInputList.listPath("get", "-ia", "-d", "o"), "attached: the parser's call");
    assertNull(EarlyInputList.listPath("get", "-d", "o", "--", "-i", "l.txt"), "after --");
    assertNull(EarlyInputList.listPath("get", "-d", "o", "-i"), "no value");
    assertNull(EarlyInputList.listPath("get", "-d", "o"));
  }

  @Test
  void take_givesWhatTheCommandWouldRead_once_andOnlyForTheSamePath() throws Exception {
    Path list =
        Files.writeString(
            dir.resolve("list.txt"),
            "http://a/d/x.bin\thttp://b/d/x.bin\n  out=s/x.bin\n  checksum=sha-256="
                + "ab".repeat(32)
                + "\nhttp://a/d/y.bin\n");
    EarlyInputList.start("get", "-i", list.toString(), "-d", "out");
    assertNull(EarlyInputList.take(dir.resolve("other.txt")));
    EarlyInputList.start("get", "-i", list.toString(), "-d", "out");
    DatasetInputs early = EarlyInputList.take(list);
    DatasetInputs now =
        DatasetInputs.selected(Catalogs.readInputList(list, CatalogLimits.DEFAULT), List.of());
    assertEquals(now.files(), early.files());
    assertEquals(now.catalog(), early.catalog());
    assertEquals(List.of("s/x.bin", "y.bin"), early.files().stream().map(f -> f.path()).toList());
    assertNull(EarlyInputList.take(list), "taken once");
  }

  @Test
  void take_aBadList_failsAsTheCommandWould_namingTheLine() throws Exception {
    Path list = Files.writeString(dir.resolve("bad.txt"), "http://a/x\n  bogus=1\n");
    EarlyInputList.start("get", "-i", list.toString(), "-d", "out");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> EarlyInputList.take(list));
    assertTrue(e.getMessage().startsWith(list + ":2: unknown option 'bogus'"), e.getMessage());
    // and through the command: exit code 2, the same one-line error
    GetCommandTest.Run r =
        GetCommandTest.run("get", "-i", list.toString(), "-d", dir.resolve("o").toString());
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains(list + ":2: unknown option 'bogus'"), r.err());
  }
}
