package org.braid.infoprovider.logs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.braid.infoprovider.TestLines;
import org.braid.infoprovider.TransferRecord;
import org.braid.infoprovider.store.Store;

/** Invariants of parsing and tailing, over generated inputs. */
class LogPropertiesTest {

  /** One step of a writer and a reader racing: append bytes, poll, or rotate. */
  record Step(int kind, int amount) {}

  @Provide
  Arbitrary<List<Step>> steps() {
    Arbitrary<Step> step =
        Combinators.combine(
                Arbitraries.frequency(
                    net.jqwik.api.Tuple.of(6, 0), // append
                    net.jqwik.api.Tuple.of(3, 1), // poll
                    net.jqwik.api.Tuple.of(1, 2), // rename rotation
                    net.jqwik.api.Tuple.of(1, 3)), // copytruncate rotation
                Arbitraries.integers().between(1, 900))
            .as(Step::new);
    return step.list().ofMinSize(1).ofMaxSize(40);
  }

  /**
   * However the log is appended to (cut anywhere, even inside a line), polled and rotated, the
   * store ends up with every complete line exactly once.
   */
  @Property(tries = 40)
  void tailing_anyAppendsPollsAndRotations_storeEveryLineExactlyOnce(
      @ForAll("steps") List<Step> steps) throws IOException {
    Path dir = Files.createTempDirectory("braid-prop");
    try {
      Path log = dir.resolve("t.log");
      StringBuilder all = new StringBuilder();
      for (int i = 0; i < 60; i++) {
        all.append(TestLines.gridftp(i)).append('\n');
      }
      byte[] bytes = all.toString().getBytes(StandardCharsets.UTF_8);
      int written = 0;
      int rotations = 0;
      try (Store store =
          Store.open(
              dir.resolve("p.db"), InstantSource.fixed(TestLines.NOW), Store.DEFAULT_RETENTION)) {
        LogTailer t = new LogTailer(log, LogFormat.GRIDFTP, store);
        for (Step s : steps) {
          switch (s.kind()) {
            case 0 -> {
              int n = Math.min(s.amount(), bytes.length - written);
              Files.write(
                  log,
                  java.util.Arrays.copyOfRange(bytes, written, written + n),
                  StandardOpenOption.CREATE,
                  StandardOpenOption.APPEND);
              written += n;
            }
            case 1 -> t.poll();
            case 2 -> {
              written = finishLine(log, bytes, written);
              if (Files.exists(log)) {
                Files.move(log, dir.resolve("t.log." + (++rotations)));
              }
            }
            default -> {
              written = finishLine(log, bytes, written);
              if (Files.exists(log)) {
                Files.copy(log, dir.resolve("t.log." + (++rotations)));
                Files.write(log, new byte[0], StandardOpenOption.TRUNCATE_EXISTING);
              }
            }
          }
        }
        t.poll();
        List<TransferRecord> stored = new ArrayList<>();
        store.forEachTransfer(stored::add);
        Map<String, Integer> seen = new HashMap<>();
        for (TransferRecord r : stored) {
          seen.merge(r.path(), 1, Integer::sum);
        }
        int complete = 0;
        for (int i = 0; i < written; i++) {
          if (bytes[i] == '\n') {
            complete++;
          }
        }
        for (int v : seen.values()) {
          assertEquals(1, v);
        }
        assertEquals(
            complete, stored.size(), "stored " + stored.size() + " of " + complete + " lines");
        assertEquals(0, t.report().rejected());
      }
    } finally {
      try (Stream<Path> s = Files.walk(dir)) {
        s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  /**
   * A server writes each line whole: before a rotation, the line being written is finished in the
   * file it started in (a rotation never splits a line).
   */
  private static int finishLine(Path log, byte[] bytes, int written) throws IOException {
    int end = written;
    while (end > 0 && end < bytes.length && bytes[end - 1] != '\n') {
      end++;
    }
    if (end > written) {
      Files.write(
          log,
          java.util.Arrays.copyOfRange(bytes, written, end),
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    }
    return end;
  }

  /** No input makes a parser fail other than with MalformedLineException. */
  @Property(tries = 2000)
  void parse_anyText_recordNullOrMalformedOnly(
      @ForAll String text, @ForAll @IntRange(min = 0, max = 3) int format) {
    LogParser p = LogFormat.values()[format].parser();
    try {
      p.parse(text);
    } catch (MalformedLineException expected) {
      // fine: counted and reported by the reader
    }
  }

  /** Cutting a valid line anywhere gives a rejection, never a wrong record or a crash. */
  @Property(tries = 500)
  void parse_truncatedGridFtpLine_isRejected(@ForAll @IntRange(min = 0, max = 300) int cut) {
    String line = TestLines.gridftp(7);
    String part = line.substring(0, Math.min(cut, line.indexOf(" CODE=")));
    try {
      LogFormat.GRIDFTP.parser().parse(part);
      throw new AssertionError("accepted a truncated line: " + part);
    } catch (MalformedLineException expected) {
      // fine
    }
  }
}
