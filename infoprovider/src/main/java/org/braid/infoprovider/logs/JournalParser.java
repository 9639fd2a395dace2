package org.braid.infoprovider.logs;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import org.braid.infoprovider.TransferRecord;
import org.braid.infoprovider.TransferRecord.Operation;

/**
 * Parses Braid's client journal, written by the downloader: one JSON object per flow, exactly
 *
 * <pre>
 * {"v":1,"download":"d1","url":"http://m1:80/data/a.bin","server":"m1:80","peer":"client.example",
 *  "path":"/data/a.bin","offset":0,"bytes":1048576,"fileSize":4194304,
 *  "start":"2026-11-22T04:00:00Z","end":"2026-11-22T04:00:02Z","streams":1,"protocol":"http",
 *  "result":"ok"}
 * </pre>
 *
 * Every key is required and no other key is accepted (version 1 is exact). A flow is a read of
 * {@code bytes} bytes by {@code peer} from {@code server}; {@code result} is "ok" or "error:
 * reason" and becomes the record's result code. Thread-safe.
 */
final class JournalParser implements LogParser {

  private static final JsonFactory JSON = new JsonFactory();
  private static final String[] KEYS = {
    "v",
    "download",
    "url",
    "server",
    "peer",
    "path",
    "offset",
    "bytes",
    "fileSize",
    "start",
    "end",
    "streams",
    "protocol",
    "result"
  };

  @Override
  public TransferRecord parse(String line) throws MalformedLineException {
    Fields.checkText(line);
    Object[] values = new Object[KEYS.length];
    try (JsonParser p = JSON.createParser(line)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new MalformedLineException("not a JSON object", "");
      }
      JsonToken t;
      while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
        String key = p.currentName();
        int k = index(key);
        if (k < 0) {
          throw new MalformedLineException("unknown key", key);
        }
        if (values[k] != null) {
          throw new MalformedLineException("duplicate key", key);
        }
        JsonToken v = p.nextToken();
        if (v == JsonToken.VALUE_NUMBER_INT) {
          values[k] = p.getLongValue();
        } else if (v == JsonToken.VALUE_STRING) {
          values[k] = p.getText();
        } else {
          throw new MalformedLineException("bad value", key + " must be a string or an integer");
        }
      }
      if (t != JsonToken.END_OBJECT) {
        throw new MalformedLineException("truncated line", "object not closed");
      }
      if (p.nextToken() != null) {
        throw new MalformedLineException("trailing data", "after the object");
      }
    } catch (IOException e) {
      throw new MalformedLineException("truncated line", firstLine(e.getMessage()));
    }
    for (int k = 0; k < KEYS.length; k++) {
      if (values[k] == null) {
        throw new MalformedLineException("missing key " + KEYS[k], "");
      }
    }
    if (!Long.valueOf(1).equals(values[0])) {
      throw new MalformedLineException("unsupported version", String.valueOf(values[0]));
    }
    long offset = number(values, 6);
    long bytes = number(values, 7);
    long fileSize = number(values, 8);
    if (offset > fileSize || bytes > fileSize - offset) {
      throw new MalformedLineException(
          "range outside the file",
          "offset " + offset + " bytes " + bytes + " fileSize " + fileSize);
    }
    Instant start = time(values, 9);
    Instant end = time(values, 10);
    if (end.isBefore(start)) {
      throw new MalformedLineException("end before start", values[9] + " " + values[10]);
    }
    long streams = number(values, 11);
    if (streams < 1 || streams > 65_535) {
      throw new MalformedLineException("bad number streams", String.valueOf(streams));
    }
    String protocol = text(values, 12);
    switch (protocol) {
      case "http":
      case "https":
      case "gsiftp":
      case "ftp":
      case "file":
        break;
      default:
        throw new MalformedLineException("bad protocol", protocol);
    }
    String result = text(values, 13);
    if (!result.equals("ok") && !result.startsWith("error: ")) {
      throw new MalformedLineException("bad result", result);
    }
    for (int k = 1; k <= 5; k++) {
      if (text(values, k).isEmpty()) {
        throw new MalformedLineException("empty " + KEYS[k], "");
      }
    }
    return new TransferRecord(
        text(values, 3),
        text(values, 4),
        text(values, 5),
        bytes,
        start,
        end,
        (int) streams,
        TransferRecord.UNKNOWN,
        TransferRecord.UNKNOWN,
        Operation.READ,
        "/",
        result,
        protocol);
  }

  private static int index(String key) {
    for (int k = 0; k < KEYS.length; k++) {
      if (KEYS[k].equals(key)) {
        return k;
      }
    }
    return -1;
  }

  private static long number(Object[] values, int k) throws MalformedLineException {
    if (!(values[k] instanceof Long)) {
      throw new MalformedLineException("bad number " + KEYS[k], String.valueOf(values[k]));
    }
    long v = (Long) values[k];
    if (v < 0) {
      throw new MalformedLineException("negative " + KEYS[k], String.valueOf(v));
    }
    return v;
  }

  private static String text(Object[] values, int k) throws MalformedLineException {
    if (!(values[k] instanceof String)) {
      throw new MalformedLineException("bad value", KEYS[k] + " must be a string");
    }
    return (String) values[k];
  }

  private static Instant time(Object[] values, int k) throws MalformedLineException {
    String s = text(values, k);
    try {
      return OffsetDateTime.parse(s).toInstant();
    } catch (DateTimeParseException e) {
      throw new MalformedLineException("bad timestamp " + KEYS[k], s);
    }
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
