package org.braid.cli;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.braid.broker.graph.MinMin;
import org.braid.coalloc.Dataset;
import org.braid.coalloc.DatasetFile;
import org.braid.coalloc.DatasetListing;
import org.braid.coalloc.ListLimits;
import org.braid.coalloc.Lister;
import org.braid.coalloc.Listing;
import org.braid.coalloc.SourceOptions;

/**
 * Measures listing and planning a dataset of many files (issue 15: 100,000 files under 512 MB of
 * heap). Not a test: run it by hand with a heap limit, e.g.
 *
 * <pre>
 * java -Xmx512m -cp "$(cat cli/target/test-classpath.txt):cli/target/test-classes:cli/target/classes" \
 *     org.braid.cli.DatasetScaleCheck /tmp/scale 100000
 * </pre>
 *
 * It writes FILES one-byte files in nested directories under DIR/a (once) and hard links under
 * DIR/b, lists both replicas recursively, merges the trees, and plans the batch with the broker's
 * Min-Min over four servers (files spread over two replica sets) with and without a client
 * capacity; it prints the time of each step and the heap in use after a full GC with all of it
 * still referenced.
 */
public final class DatasetScaleCheck {
  private DatasetScaleCheck() {}

  public static void main(String[] args) throws IOException {
    Path dir = Path.of(args[0]);
    int n = Integer.parseInt(args[1]);
    Path a = dir.resolve("a");
    Path b = dir.resolve("b");
    if (!Files.exists(dir.resolve("done-" + n))) {
      for (int i = 0; i < n; i++) {
        String rel = String.format(Locale.ROOT, "d%03d/e%02d/file %06d.dat", i % 500, i % 37, i);
        Path p = a.resolve(rel);
        Files.createDirectories(p.getParent());
        Files.write(p, new byte[] {(byte) i});
        Path q = b.resolve(rel);
        Files.createDirectories(q.getParent());
        Files.createLink(q, p);
      }
      Files.createFile(dir.resolve("done-" + n));
    }
    long t0 = System.nanoTime();
    List<Listing> ls = new ArrayList<>();
    for (Path root : List.of(a, b)) {
      try (Lister l = Lister.of(root.toUri(), SourceOptions.DEFAULT, ListLimits.DEFAULT)) {
        ls.add(l.list());
      }
    }
    DatasetListing.Merged m = DatasetListing.merge(ls);
    long t1 = System.nanoTime();
    ls = null;
    List<MinMin.Job> jobs = new ArrayList<>(m.files().size());
    Map<String, Double> fast = Map.of("a:80", 10e6, "b:80", 5e6, "c:80", 2.5e6);
    Map<String, Double> slow = Map.of("b:80", 5e6, "d:80", 1.25e6);
    for (int i = 0; i < m.files().size(); i++) {
      DatasetFile f = m.files().get(i);
      jobs.add(new MinMin.Job(f.path(), 1 + (i * 7919L) % 5_000_000, i % 3 == 0 ? slow : fast));
    }
    List<MinMin.Scheduled> plan = MinMin.schedule(jobs);
    long t2 = System.nanoTime();
    List<MinMin.Scheduled> capped = MinMin.schedule(jobs, 12e6);
    long t3 = System.nanoTime();
    Map<String, DatasetFile> byPath = new HashMap<>();
    for (DatasetFile f : m.files()) {
      byPath.put(f.path(), f);
    }
    List<DatasetFile> ordered = new ArrayList<>(plan.size());
    for (MinMin.Scheduled s : capped) {
      ordered.add(byPath.get(s.id()));
    }
    int j = Dataset.defaultConcurrency(ordered, List.of());
    long peak = 0;
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == java.lang.management.MemoryType.HEAP) {
        peak += p.getPeakUsage().getUsed();
      }
    }
    URI first = ordered.get(0).sources().get(0);
    System.gc();
    long live = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    // the listing, the file list and both plans are still referenced here
    int kept = m.files().size() + plan.size() + capped.size() + ordered.size();
    System.out.printf(
        Locale.ROOT,
        "%d files on 2 replicas (first %s): listing and merge %.2f s; Min-Min %.2f s; Min-Min with"
            + " client capacity %.2f s; -j %d; max heap %d MiB; heap in use after a full GC with the"
            + " listing and both plans live %d MiB (%d objects kept); peak of the heap pools"
            + " %d MiB%n",
        m.files().size(),
        first,
        (t1 - t0) / 1e9,
        (t2 - t1) / 1e9,
        (t3 - t2) / 1e9,
        j,
        Runtime.getRuntime().maxMemory() >> 20,
        live >> 20,
        kept,
        peak >> 20);
  }
}
