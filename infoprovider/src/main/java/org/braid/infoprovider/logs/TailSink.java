package org.braid.infoprovider.logs;

import java.io.IOException;
import java.util.List;
import org.braid.infoprovider.TransferRecord;

/**
 * Where a {@link LogTailer} keeps positions and delivers transfers. The store implements it so that
 * records and the position after them are committed together: a crash between the two cannot lose
 * or duplicate a line.
 */
public interface TailSink {

  /** A transfer with the key that makes re-reading its line harmless (a hash of the line). */
  record KeyedRecord(String key, TransferRecord record) {}

  /**
   * A rejected line's key (a hash of the line, or of its place for an over-long line) and reason.
   */
  record KeyedRejection(String key, String reason) {}

  /** The stored position of a file, or null if it was never read. */
  FilePosition position(String source, String fingerprint) throws IOException;

  /**
   * Stores the records and rejections (ignoring keys already stored) and moves the position, all at
   * once.
   *
   * @return the records actually stored (not stored before, within the retention)
   */
  List<TransferRecord> commit(
      FilePosition position, List<KeyedRecord> records, List<KeyedRejection> rejections)
      throws IOException;
}
