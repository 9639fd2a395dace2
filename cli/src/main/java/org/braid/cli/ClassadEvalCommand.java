package org.braid.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import org.braid.matchmaking.BoundedLineReader;
import org.braid.matchmaking.ClassAdParseException;
import org.braid.matchmaking.ClassAds;
import org.braid.matchmaking.EvalOptions;
import org.braid.matchmaking.Evaluation;
import org.braid.matchmaking.ParseOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code braid classad eval}: one expression per input line, one value per output line. */
@Command(
    name = "eval",
    mixinStandardHelpOptions = true,
    description = {
      "Evaluate one ClassAd expression per line of standard input.",
      "",
      "Prints one line per expression: its value as a ClassAd literal that HTCondor's parser "
          + "reads back to the same value (undefined, error, true, 3, 2.5, \"a\\\"b\", "
          + "{ 1, 2 }, [ a = 1 ], real(\"INF\")). A line that does not parse prints error, its "
          + "position goes to standard error, and the run goes on. Blank lines are skipped. "
          + "A line over 1,048,576 characters does not parse (it is never held whole); an "
          + "evaluation that reaches a limit (steps, nesting, string length, pattern size; see "
          + "docs/classads.md) prints error and names the limit on standard error. "
          + "Exit status 0, or 2 when a line did not parse."
    })
final class ClassadEvalCommand implements java.util.concurrent.Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--paper",
      description = "Also read the paper's notation: 5M, 50G, 2Gi, 6M/sec (off: strict HTCondor).")
  boolean paper;

  @Option(
      names = "--json",
      description =
          "Print one JSON object per line: {\"line\", \"value\", \"type\"} (and \"error\").")
  boolean json;

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    ParseOptions options = ClassadCommand.options(paper);
    // lines are cut just past the parser's limit while they are read, never read whole
    BoundedLineReader in =
        new BoundedLineReader(
            new InputStreamReader(System.in, StandardCharsets.UTF_8), options.maxLength());
    int lineNo = 0;
    boolean anyBad = false;
    String line;
    while ((line = in.readLine()) != null) {
      lineNo++;
      if (line.isBlank()) {
        continue;
      }
      try {
        Evaluation.Printed p =
            Evaluation.print(ClassAds.parseExpression(line, options), EvalOptions.DEFAULT);
        String limit = p.limitReached().orElse(null);
        if (limit != null) {
          err.println("braid: line " + lineNo + ": " + limit);
          err.flush();
        }
        print(out, lineNo, p.text(), p.value().typeName(), limit);
      } catch (ClassAdParseException e) {
        anyBad = true;
        err.println("braid: line " + lineNo + ", column " + e.column() + ": " + e.reason());
        err.flush();
        print(out, lineNo, "error", "error", e.reason());
      }
    }
    out.flush();
    return anyBad ? 2 : 0;
  }

  private void print(PrintWriter out, int line, String value, String type, String error) {
    if (!json) {
      out.println(value);
      return;
    }
    ObjectNode o = Mappers.json().createObjectNode();
    o.put("line", line);
    o.put("value", value);
    o.put("type", type);
    if (error != null) {
      o.put("error", error);
    }
    out.println(o.toString());
  }
}
