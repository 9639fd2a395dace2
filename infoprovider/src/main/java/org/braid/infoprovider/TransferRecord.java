package org.braid.infoprovider;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import org.braid.coalloc.journal.JournalLine;

/**
 * One finished transfer from any log (GridFTP, HTTP access log, Braid client journal).
 *
 * <p>Bandwidth is bytes divided by seconds (paper 003, section 2.4). A transfer logged with a
 * duration of zero is counted as lasting {@link #MIN_DURATION}, so its bandwidth stays finite. A
 * record of what a replica delivered over a whole download (a client journal line of version 2)
 * counts the seconds it was actually transferring, not its span from first request to last.
 *
 * @param server the server that moved the data, e.g. a host name or {@code host:port}
 * @param peer the other end: the client address for a server log, the client host for a journal
 * @param path the file path on the server
 * @param size bytes moved (for a partial transfer, the bytes of that part)
 * @param start when the transfer started
 * @param end when the transfer ended, not before {@code start}
 * @param streams parallel TCP streams, at least 1
 * @param tcpBuffer TCP buffer size in bytes, or {@link #UNKNOWN} (-1)
 * @param blockSize block size in bytes, or {@link #UNKNOWN} (-1)
 * @param operation read (data left the server) or write (data arrived at the server)
 * @param volume the logical volume the file was read from or written to
 * @param resultCode the log's result: "226" for GridFTP, the HTTP status, "ok" or "error: ..."
 * @param protocol the access protocol: gsiftp, ftp, http, https or file
 * @param journal the client journal line it was read from, or null for a server's log
 */
public record TransferRecord(
    String server,
    String peer,
    String path,
    long size,
    Instant start,
    Instant end,
    int streams,
    long tcpBuffer,
    long blockSize,
    Operation operation,
    String volume,
    String resultCode,
    String protocol,
    JournalLine journal) {

  /** Marks an unknown TCP buffer or block size. */
  public static final long UNKNOWN = -1;

  /** The shortest duration a transfer is counted as lasting: 1 microsecond. */
  public static final Duration MIN_DURATION = Duration.ofNanos(1_000);

  /** Direction of a transfer, seen from the server. */
  public enum Operation {
    /** Data left the server (GridFTP RETR/ERET, HTTP GET). */
    READ,
    /** Data arrived at the server (GridFTP STOR/ESTO, HTTP PUT). */
    WRITE;

    /** The lower-case name used in JSON, metrics and URLs: "read" or "write". */
    public String label() {
      return this == READ ? "read" : "write";
    }

    /**
     * Parses "read" or "write" (any case).
     *
     * @throws IllegalArgumentException for anything else
     */
    public static Operation parse(String s) {
      switch (s.toLowerCase(Locale.ROOT)) {
        case "read":
          return READ;
        case "write":
          return WRITE;
        default:
          throw new IllegalArgumentException("operation must be read or write: " + s);
      }
    }
  }

  /**
   * Checks the record.
   *
   * @throws NullPointerException if a text field, a time or the operation is null
   * @throws IllegalArgumentException if size is negative, end is before start, streams is below 1,
   *     or a buffer or block size is below -1
   */
  public TransferRecord {
    Objects.requireNonNull(server, "server");
    Objects.requireNonNull(peer, "peer");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(start, "start");
    Objects.requireNonNull(end, "end");
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(volume, "volume");
    Objects.requireNonNull(resultCode, "resultCode");
    Objects.requireNonNull(protocol, "protocol");
    if (size < 0) {
      throw new IllegalArgumentException("size must not be negative: " + size);
    }
    if (end.isBefore(start)) {
      throw new IllegalArgumentException("end " + end + " is before start " + start);
    }
    if (streams < 1) {
      throw new IllegalArgumentException("streams must be at least 1: " + streams);
    }
    if (tcpBuffer < UNKNOWN) {
      throw new IllegalArgumentException("tcpBuffer must be -1 (unknown) or more: " + tcpBuffer);
    }
    if (blockSize < UNKNOWN) {
      throw new IllegalArgumentException("blockSize must be -1 (unknown) or more: " + blockSize);
    }
  }

  /** A record from a server's log (no journal line). */
  public TransferRecord(
      String server,
      String peer,
      String path,
      long size,
      Instant start,
      Instant end,
      int streams,
      long tcpBuffer,
      long blockSize,
      Operation operation,
      String volume,
      String resultCode,
      String protocol) {
    this(
        server,
        peer,
        path,
        size,
        start,
        end,
        streams,
        tcpBuffer,
        blockSize,
        operation,
        volume,
        resultCode,
        protocol,
        null);
  }

  /**
   * A copy on another volume (for logs whose lines do not name one, such as HTTP access logs).
   *
   * @throws NullPointerException if volume is null
   */
  public TransferRecord withVolume(String volume) {
    return new TransferRecord(
        server,
        peer,
        path,
        size,
        start,
        end,
        streams,
        tcpBuffer,
        blockSize,
        operation,
        volume,
        resultCode,
        protocol,
        journal);
  }

  /** The logged duration, at least {@link #MIN_DURATION}. */
  public Duration duration() {
    Duration d = Duration.between(start, end);
    return d.compareTo(MIN_DURATION) < 0 ? MIN_DURATION : d;
  }

  /**
   * The seconds it was moving data, at least 1e-6: the logged duration, or for a journal record of
   * a whole download (version 2) its busy time.
   */
  public double seconds() {
    Duration d = journal != null && !journal.isRequest() ? journal.busy() : duration();
    d = d.compareTo(MIN_DURATION) < 0 ? MIN_DURATION : d;
    return d.getSeconds() + d.getNano() / 1e9;
  }

  /** Bytes per second: {@code size / seconds()}. */
  public double bandwidth() {
    return size / seconds();
  }

  /** The size class of this transfer (paper 003, section 3.3.3). */
  public SizeClass sizeClass() {
    return SizeClass.of(size);
  }

  /**
   * Whether the transfer succeeded: GridFTP 226, HTTP 200, 201, 204 or 206, journal "ok".
   * Statistics count only successful transfers.
   */
  public boolean succeeded() {
    switch (resultCode) {
      case "226":
      case "200":
      case "201":
      case "204":
      case "206":
      case "ok":
        return true;
      default:
        return false;
    }
  }
}
