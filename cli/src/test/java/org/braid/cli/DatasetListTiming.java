package org.braid.cli;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.braid.broker.catalog.CatalogFile;
import org.braid.broker.catalog.CatalogLimits;
import org.braid.broker.catalog.Catalogs;
import org.braid.broker.catalog.ReplicaCatalog;
import org.braid.coalloc.DatasetFile;

/**
 * Times reading an aria2-style input list as {@code braid get -i LIST -d DIR} does (the list
 * parsed, each entry made a {@link DatasetFile}), N times in one JVM: the first time is the cold
 * cost a run pays. Prints wall-clock and this thread's CPU milliseconds (the CPU time is the figure
 * to compare on a busy machine). Not a test; see docs/download.md ("Start-up of a dataset job").
 * Usage: {@code java -cp cli/target/braid.jar:cli/target/test-classes
 * org.braid.cli.DatasetListTiming LIST [N]}
 */
public final class DatasetListTiming {
  private DatasetListTiming() {}

  public static void main(String[] args) throws Exception {
    Path list = Path.of(args[0]);
    int n = args.length > 1 ? Integer.parseInt(args[1]) : 1;
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    for (int i = 0; i < n; i++) {
      long cpu = mx.getCurrentThreadCpuTime();
      long t0 = System.nanoTime();
      ReplicaCatalog c = Catalogs.readInputList(list, CatalogLimits.DEFAULT);
      List<String> notes = new ArrayList<>();
      List<DatasetFile> files = new ArrayList<>();
      for (CatalogFile f : c.select(List.of())) {
        files.add(DatasetInputs.file(f, notes));
      }
      System.out.printf(
          Locale.ROOT,
          "%d files: %.1f ms, %.1f ms of CPU%n",
          files.size(),
          (System.nanoTime() - t0) / 1e6,
          (mx.getCurrentThreadCpuTime() - cpu) / 1e6);
    }
  }
}
