package org.braid.matchmaking;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * HTCondor's own ClassAd library (PyPI {@code htcondor}, module {@code classad2}) run as a
 * subprocess: src/test/resources/oracle.py.
 */
final class Oracle implements AutoCloseable {

  private final Process process;
  private final BufferedWriter in;
  private final BufferedReader out;

  private Oracle(Process p) {
    this.process = p;
    this.in =
        new BufferedWriter(new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8));
    this.out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
  }

  /** The venv's python at the repository root (walking up), else python3 on PATH. */
  static String python() {
    Path dir = Paths.get("").toAbsolutePath();
    for (Path d = dir; d != null; d = d.getParent()) {
      Path py = d.resolve(".venv/bin/python");
      if (Files.isExecutable(py)) {
        return py.toString();
      }
    }
    return "python3";
  }

  /** Why the oracle cannot run, or null when classad2 imports. */
  static String unavailableReason() {
    try {
      Process p =
          new ProcessBuilder(python(), "-c", "import classad2").redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
        return "python module classad2 is not importable with " + python();
      }
      return null;
    } catch (IOException e) {
      return "cannot run " + python() + ": " + e.getMessage();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
  }

  /** How to install the oracle: HTCondor's Python bindings (PyPI htcondor 25.x) in a venv. */
  static final String INSTALL_HINT =
      "python3 -m venv .venv && .venv/bin/pip install -r .ci/requirements.txt (htcondor 25.x)";

  static Oracle start() throws IOException {
    Path script = Paths.get("src/test/resources/oracle.py").toAbsolutePath();
    if (!Files.exists(script)) {
      script = Paths.get("matchmaking/src/test/resources/oracle.py").toAbsolutePath();
    }
    ProcessBuilder pb = new ProcessBuilder(python(), script.toString());
    pb.environment().put("_CONDOR_STRICT_CLASSAD_EVALUATION", "true");
    pb.environment().put("TZ", "UTC");
    pb.redirectError(ProcessBuilder.Redirect.INHERIT);
    return new Oracle(pb.start());
  }

  /** Sends the cases ("E\texpr" or "A\tad") and returns one canonical result per case. */
  List<String> run(List<String> cases) throws IOException {
    List<String> results = runUntilExit(cases);
    if (results.size() < cases.size()) {
      throw new IOException("oracle exited after " + results.size() + " results");
    }
    return results;
  }

  /** What {@link #runRestarting} records for a case that killed HTCondor's library. */
  static final String CRASHED = "CRASHED";

  /**
   * Like {@link #run}, but when HTCondor's library kills the oracle process (it overflows its stack
   * on some self-referential lists, see docs/classads.md), records {@link #CRASHED} for that case
   * and goes on with a fresh oracle.
   */
  static List<String> runRestarting(List<String> cases) throws IOException {
    List<String> results = new ArrayList<>(cases.size());
    while (results.size() < cases.size()) {
      try (Oracle o = start()) {
        results.addAll(o.runUntilExit(cases.subList(results.size(), cases.size())));
      }
      if (results.size() < cases.size()) {
        results.add(CRASHED);
      }
    }
    return results;
  }

  /** The results until all cases are answered or the oracle exits, whichever comes first. */
  private List<String> runUntilExit(List<String> cases) throws IOException {
    Thread writer =
        new Thread(
            () -> {
              try {
                for (String c : cases) {
                  in.write(c);
                  in.write('\n');
                }
                in.flush();
              } catch (IOException e) {
                // the oracle died; the reader sees the end of its output
              }
            });
    writer.start();
    List<String> results = new ArrayList<>(cases.size());
    for (int k = 0; k < cases.size(); k++) {
      String line = out.readLine();
      if (line == null) {
        break;
      }
      results.add(line);
    }
    try {
      writer.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return results;
  }

  /** Asks the oracle to time n evaluations of the last "A" case; returns evaluations/s. */
  double rate(String adCase, int n) throws IOException {
    in.write(adCase);
    in.write('\n');
    in.write("T\t" + n + "\n");
    in.flush();
    out.readLine();
    String r = out.readLine();
    return Double.parseDouble(r.substring("rate:".length()));
  }

  @Override
  public void close() throws IOException {
    try {
      in.close();
    } catch (IOException e) {
      // the oracle has already exited
    }
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    process.destroy();
  }
}
