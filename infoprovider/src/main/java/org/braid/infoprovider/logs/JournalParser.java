package org.braid.infoprovider.logs;

import org.braid.coalloc.journal.JournalLine;
import org.braid.infoprovider.TransferRecord;
import org.braid.infoprovider.TransferRecord.Operation;

/**
 * Parses Braid's client journal, written by the downloader: each line is a {@link JournalLine}
 * (defined once, in the downloader, for its writer and every reader). A line is a read of {@code
 * bytes} bytes by {@code peer} from {@code server}; {@code result} is "ok" or "error: reason" and
 * becomes the record's result code. Thread-safe.
 */
final class JournalParser implements LogParser {

  @Override
  public TransferRecord parse(String line) throws MalformedLineException {
    Fields.checkText(line);
    JournalLine j;
    try {
      j = JournalLine.parse(line);
    } catch (JournalLine.MalformedException e) {
      throw new MalformedLineException(e.reason(), e.detail());
    }
    return new TransferRecord(
        j.server(),
        j.peer(),
        j.path(),
        j.bytes(),
        j.start(),
        j.end(),
        j.streams(),
        TransferRecord.UNKNOWN,
        TransferRecord.UNKNOWN,
        Operation.READ,
        "/",
        j.result(),
        j.protocol());
  }
}
