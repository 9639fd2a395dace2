package org.braid.cli;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import org.braid.matchmaking.ClassAd;
import org.braid.matchmaking.ClassAdParseException;
import org.braid.matchmaking.ClassAds;
import org.braid.matchmaking.Expr;
import org.braid.matchmaking.ParseOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code braid classad}: evaluate ClassAd expressions and match ads, HTCondor-compatible. */
@Command(
    name = "classad",
    mixinStandardHelpOptions = true,
    description = {
      "Evaluate ClassAd expressions and match and rank ads, as HTCondor does.",
      "",
      "The language is HTCondor's (strict new-ClassAd scoping); --paper also reads the "
          + "notation of the replica-selection paper (5M/sec). See docs/classads.md."
    },
    subcommands = {ClassadEvalCommand.class, ClassadMatchCommand.class})
final class ClassadCommand implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  static ParseOptions options(boolean paper) {
    return paper ? ParseOptions.PAPER : ParseOptions.DEFAULT;
  }

  /** Reads ads from a file: new syntax, or old syntax separated by blank lines. */
  static List<ClassAd> readAds(Path file, String what, ParseOptions o) {
    String text;
    try {
      text = ClassAds.readText(file, o); // at most o.maxLength() + 1 characters
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException(what + " file not found: " + file);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read " + what + " file " + file + ": " + e);
    }
    try {
      return ClassAds.parseAll(text, o);
    } catch (ClassAdParseException e) {
      String more = e.problems().size() > 1 ? " (and " + (e.problems().size() - 1) + " more)" : "";
      throw new IllegalArgumentException(what + " file " + file + ": " + e.oneLine() + more);
    }
  }

  /** The first of Name, hostname, Machine the ad has, as a label; else null. */
  static String label(ClassAd ad) {
    for (String n : new String[] {"Name", "hostname", "Machine"}) {
      Expr e = ad.lookup(n);
      if (e != null) {
        return n + " = " + e.unparse();
      }
    }
    return null;
  }
}
