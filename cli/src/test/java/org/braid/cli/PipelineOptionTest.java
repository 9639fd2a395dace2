package org.braid.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.braid.coalloc.SourceOptions;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code --pipeline} and {@code --no-pipeline} are the user's choice; without either the download
 * decides (pipelined for large files from distant replicas).
 */
class PipelineOptionTest {
  private static SourceOptions parse(String... args) throws Exception {
    ConnectionOptions o = new ConnectionOptions();
    new CommandLine(o).parseArgs(args);
    return o.builder(false).build();
  }

  @Test
  void neither_leavesTheChoiceToTheDownload() throws Exception {
    SourceOptions o = parse();
    assertFalse(o.pipeliningChosen());
    assertFalse(o.pipelining());
  }

  @Test
  void pipeline_andNoPipeline_areChosen() throws Exception {
    SourceOptions on = parse("--pipeline");
    assertTrue(on.pipeliningChosen() && on.pipelining());
    SourceOptions off = parse("--no-pipeline");
    assertTrue(off.pipeliningChosen());
    assertFalse(off.pipelining());
  }

  @Test
  void both_areRefused() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> parse("--pipeline", "--no-pipeline"));
    assertTrue(e.getMessage().contains("exclude each other"), e.getMessage());
  }
}
