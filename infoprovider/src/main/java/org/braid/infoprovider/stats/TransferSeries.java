package org.braid.infoprovider.stats;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.braid.infoprovider.TransferRecord;
import org.braid.infoprovider.logs.LogFiles;
import org.braid.infoprovider.logs.LogFormat;
import org.braid.infoprovider.logs.ParseReport;
import org.braid.predictors.Series;

/**
 * Bandwidth series from transfer logs, one per (volume, peer, operation): the input of {@code braid
 * predict evaluate} for GridFTP, HTTP and journal logs. Each successful transfer is a sample at its
 * end time with its bandwidth (bytes per second) and size; series are named {@code PEER/read} or
 * {@code PEER/write}, with {@code " on VOLUME"} appended when the volume is not {@code /}.
 */
public final class TransferSeries {

  private TransferSeries() {}

  /**
   * Reads log files into series, counting every line in {@code report}.
   *
   * @throws java.nio.file.NoSuchFileException if a file does not exist
   * @throws IOException if a file cannot be read
   */
  public static List<Series> read(LogFormat format, List<Path> files, ParseReport report)
      throws IOException {
    Map<String, List<TransferRecord>> groups = new TreeMap<>();
    for (Path f : files) {
      LogFiles.read(
          f,
          format,
          r -> {
            if (r.succeeded()) {
              String name =
                  r.peer()
                      + "/"
                      + r.operation().label()
                      + (r.volume().equals("/") ? "" : " on " + r.volume());
              groups.computeIfAbsent(name, k -> new ArrayList<>()).add(r);
            }
          },
          report);
    }
    List<Series> out = new ArrayList<>();
    for (Map.Entry<String, List<TransferRecord>> e : groups.entrySet()) {
      List<TransferRecord> rs = e.getValue();
      rs.sort(Comparator.comparing(TransferRecord::end));
      Series.Builder b = Series.builder(e.getKey());
      for (TransferRecord r : rs) {
        b.add(r.end(), r.bandwidth(), r.size());
      }
      out.add(b.build());
    }
    return out;
  }
}
