package org.braid.coalloc.journal;

import java.time.Duration;
import java.time.Instant;

/**
 * The rules a journal line must meet, shared by its constructor and its parser: each method gives
 * the reason a line is refused ("short reason: detail"), or null.
 */
final class JournalChecks {

  private JournalChecks() {}

  /** The whole milliseconds from start to end; 0 when either is missing or end is earlier. */
  static long spanMillis(Instant start, Instant end) {
    if (start == null || end == null || end.isBefore(start)) {
      return 0;
    }
    return Duration.between(start, end).toMillis();
  }

  static String problem(
      int version, String download, String url, String server, String peer, String path) {
    if (version != 1 && version != 2) {
      return "unsupported version: " + version;
    }
    String[] names = {"download", "url", "server", "peer", "path"};
    String[] values = {download, url, server, peer, path};
    for (int i = 0; i < names.length; i++) {
      if (values[i].isEmpty()) {
        return "empty " + names[i];
      }
    }
    return null;
  }

  /** Version 1: the request's range lies in the file. */
  static String requestProblem(long offset, long bytes, long fileSize) {
    if (offset < 0 || bytes < 0 || fileSize < 0) {
      return "negative " + (offset < 0 ? "offset" : bytes < 0 ? "bytes" : "fileSize");
    }
    if (offset > fileSize || bytes > fileSize - offset) {
      return "range outside the file: offset "
          + offset
          + " bytes "
          + bytes
          + " fileSize "
          + fileSize;
    }
    return null;
  }

  /** Version 2: no offset, and no more bytes put into the file than received. */
  static String deliveryProblem(long offset, long fileSize, long bytes, long received) {
    if (offset != -1) {
      return "offset in a version 2 line: " + offset;
    }
    if (fileSize < 0 || bytes < 0 || received < 0) {
      return "negative " + (fileSize < 0 ? "fileSize" : bytes < 0 ? "bytes" : "received");
    }
    if (bytes > received) {
      return "more bytes than received: bytes " + bytes + " received " + received;
    }
    return null;
  }

  /** The span, the busy time within it, and the shared time within that. */
  static String timeProblem(
      Instant start, Instant end, long busyMillis, long sharedMillis, int version) {
    if (end.isBefore(start)) {
      return "end before start: " + start + " " + end;
    }
    if (busyMillis < 0) {
      return "negative busyMs: " + busyMillis;
    }
    long span = spanMillis(start, end);
    if (busyMillis > span) {
      return "busy longer than the span: busyMs " + busyMillis + " span " + span + " ms";
    }
    if (version == 1 ? sharedMillis != -1 : sharedMillis < -1) {
      return "bad number sharedMs: " + sharedMillis;
    }
    if (sharedMillis > busyMillis) {
      return "shared longer than busy: sharedMs " + sharedMillis + " busyMs " + busyMillis;
    }
    return null;
  }

  /**
   * Requests, failures and the concurrency counts (replicas and flows 0 when sharing is unknown).
   */
  static String countProblem(
      int version,
      int requests,
      int failures,
      int connections,
      long sharedMillis,
      int replicas,
      int flows) {
    if (requests < 1) {
      return "bad number requests: " + requests;
    }
    if (failures < 0 || failures > requests) {
      return "bad number failures: " + failures + " of " + requests + " requests";
    }
    if (connections < 1 || connections > requests) {
      return "bad number connections: " + connections + " with " + requests + " requests";
    }
    if (sharedMillis == -1) {
      // unknown sharing: version 1, or version 2 merged from version 1 lines
      return replicas == 0 && flows == 0
          ? null
          : "sharing without sharedMs: replicas " + replicas + " flows " + flows;
    }
    if (replicas < 1) {
      return "bad number replicas: " + replicas;
    }
    if (flows < connections || flows < replicas) {
      return "bad number flows: "
          + flows
          + " with "
          + connections
          + " connections and "
          + replicas
          + " replicas";
    }
    return null;
  }

  static String problem(int streams, String protocol, String result) {
    if (streams < 1 || streams > 65_535) {
      return "bad number streams: " + streams;
    }
    if (!JournalLine.PROTOCOLS.contains(protocol)) {
      return "bad protocol: " + protocol;
    }
    if (!result.equals("ok") && !result.startsWith("error: ")) {
      return "bad result: " + result;
    }
    return null;
  }
}
