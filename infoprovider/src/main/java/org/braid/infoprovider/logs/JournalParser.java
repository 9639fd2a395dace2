package org.braid.infoprovider.logs;

import org.braid.coalloc.journal.JournalLine;
import org.braid.infoprovider.TransferRecord;
import org.braid.infoprovider.TransferRecord.Operation;

/**
 * Parses Braid's client journal, written by the downloader: each line is a {@link JournalLine}
 * (defined once, in the downloader, for its writer and every reader). A line is a read by {@code
 * peer} from {@code server}: of a version 2 line, the {@code received} bytes over its busy time
 * (what the replica delivered in one download); of a version 1 line, one request's {@code bytes}.
 * {@code result} is "ok" or "error: reason" and becomes the record's result code; the line itself
 * is kept as the record's {@link TransferRecord#journal()}. Thread-safe.
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
        j.received(),
        j.start(),
        j.end(),
        j.streams(),
        TransferRecord.UNKNOWN,
        TransferRecord.UNKNOWN,
        Operation.READ,
        "/",
        j.result(),
        j.protocol(),
        j);
  }
}
