/*
 * The CPU time a fresh JVM takes to render and print the JSON report of a 1,000-file dataset job,
 * as `braid get -d DIR --json` does at the job's end (docs/download.md, "Start-up of a dataset
 * job", session 12). Not a test; run it by hand against a built jar (two jars to compare them):
 *   javac -cp cli/target/braid.jar -d /tmp/drs src/test/bench/DatasetReportSpeed.java
 *   java -cp cli/target/braid.jar:/tmp/drs DatasetReportSpeed
 * A one-file report is rendered first (as the job's warm-up does, so that class loading is not
 * counted); then the 1,000-file report three times, each line the render's and the print's CPU
 * time of this thread (the first line is the one a job's end pays).
 */
import java.io.FileOutputStream;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.braid.coalloc.DatasetFileReport;
import org.braid.coalloc.DatasetReport;
import org.braid.coalloc.DatasetReports;

public class DatasetReportSpeed {
  public static void main(String[] args) throws Exception {
    List<DatasetFileReport> files = new ArrayList<>();
    Random r = new Random(1);
    for (int i = 0; i < 1000; i++) {
      String sha = String.format("%064x", new BigInteger(256, r));
      String path = String.format("d%02d/s%02d/file%05d.dat", i % 128 / 16, i % 16, i);
      files.add(
          new DatasetFileReport(
              path,
              100_000 + r.nextInt(1_000_000),
              "fetched",
              Math.round(r.nextDouble() * 10_000) / 1000.0,
              sha,
              Map.of("http://10.238." + (1 + i % 4) + ".1:80", 123_456L),
              null));
    }
    DatasetReport report =
        new DatasetReport(
            "id", Path.of("/tmp/out"), files, List.of(), Instant.now(), 56.4, 999_999_587L,
            1_000_286_863L, null);
    DatasetReports.json(
        new DatasetReport(
            "w", Path.of("."), files.subList(0, 1), List.of(), Instant.now(), 1, 1, 1, null));
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    PrintWriter out = new PrintWriter(new FileOutputStream("/dev/null"), true);
    for (int k = 0; k < 3; k++) {
      long t0 = mx.getCurrentThreadCpuTime();
      String s = DatasetReports.json(report) + System.lineSeparator();
      long t1 = mx.getCurrentThreadCpuTime();
      out.print(s);
      out.flush();
      long t2 = mx.getCurrentThreadCpuTime();
      System.out.printf(
          "render %.1f ms, print %.1f ms of CPU, %d characters%n",
          (t1 - t0) / 1e6, (t2 - t1) / 1e6, s.length());
    }
  }
}
