package org.braid.coalloc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.braid.coalloc.journal.JournalLine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Feeds the journal's history into the GridFTP sources' {@link StreamTuner}s: each successful
 * GridFTP line the client journal holds for the same server (host:port), a request (version 1) or a
 * replica's share of a download (version 2), is one rate measured with its stream count. Reads only
 * the journal's last {@link #TAIL} bytes, so a long journal costs bounded time and memory; lines it
 * cannot parse are skipped.
 */
final class StreamHistory {
  private static final Logger LOG = LoggerFactory.getLogger(Engine.class);

  /** How much of the journal's end is read. */
  static final int TAIL = 4 << 20;

  private StreamHistory() {}

  /** Teaches every automatic GridFTP source among {@code sources} its server's history. */
  static void seed(String id, Path journal, List<RangeSource> sources) {
    if (journal == null || sources.stream().noneMatch(StreamHistory::automatic)) {
      return;
    }
    List<JournalLine> lines;
    try {
      lines = tail(journal);
    } catch (NoSuchFileException e) {
      return;
    } catch (IOException e) {
      LOG.warn("[{}] cannot read the journal {} for stream counts: {}", id, journal, e.toString());
      return;
    }
    for (RangeSource s : sources) {
      if (automatic(s)) {
        GridFtpRangeSource g = (GridFtpRangeSource) s;
        String server = Journal.server(g.uri());
        for (JournalLine l : lines) {
          if (l.server().equals(server) && isGridFtp(l.protocol()) && l.result().equals("ok")) {
            // a request (version 1) or a replica's share of a download (version 2): its bytes
            // over its busy time
            g.tuner().learn(l.streams(), l.received(), l.busy().toNanos());
          }
        }
        LOG.info("[{}] {}: {} from the journal's history", id, server, g.tuner());
      }
    }
  }

  private static boolean automatic(RangeSource s) {
    return s instanceof GridFtpRangeSource g && g.tuner().automatic();
  }

  private static boolean isGridFtp(String protocol) {
    return protocol.equals("gsiftp") || protocol.equals("ftp");
  }

  /** The lines of the journal's last {@link #TAIL} bytes (the first, partial one dropped). */
  static List<JournalLine> tail(Path journal) throws IOException {
    String text;
    boolean cut;
    try (FileChannel ch = FileChannel.open(journal, StandardOpenOption.READ)) {
      long size = ch.size();
      cut = size > TAIL;
      ByteBuffer b = ByteBuffer.allocate((int) Math.min(size, TAIL));
      ch.position(size - b.capacity());
      while (b.hasRemaining() && ch.read(b) >= 0) {
        // reads to the end
      }
      text = new String(b.array(), 0, b.position(), StandardCharsets.UTF_8);
    }
    return text.lines().skip(cut ? 1 : 0).map(StreamHistory::parse).filter(l -> l != null).toList();
  }

  private static JournalLine parse(String line) {
    try {
      return JournalLine.parse(line);
    } catch (JournalLine.MalformedException | IllegalArgumentException e) {
      return null; // another version, or damaged: not history this reader can use
    }
  }
}
