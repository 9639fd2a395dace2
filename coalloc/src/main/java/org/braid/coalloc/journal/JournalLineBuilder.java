package org.braid.coalloc.journal;

import java.time.Instant;
import java.util.Objects;

/** Builds a version 2 {@link JournalLine} ({@link JournalLine#delivery}). Not thread-safe. */
public final class JournalLineBuilder {
  private final String download;
  private final String url;
  private final String server;
  private final String peer;
  private final String path;
  private final String protocol;
  private long fileSize;
  private long bytes;
  private long received;
  private Instant start = Instant.EPOCH;
  private Instant end = Instant.EPOCH;
  private long busyMillis;
  private int requests = 1;
  private int failures;
  private int connections = 1;
  private long sharedMillis;
  private int replicas = 1;
  private int flows = 1;
  private int streams = 1;
  private String result = "ok";

  JournalLineBuilder(
      String download, String url, String server, String peer, String path, String protocol) {
    this.download = Objects.requireNonNull(download, "download");
    this.url = Objects.requireNonNull(url, "url");
    this.server = Objects.requireNonNull(server, "server");
    this.peer = Objects.requireNonNull(peer, "peer");
    this.path = Objects.requireNonNull(path, "path");
    this.protocol = Objects.requireNonNull(protocol, "protocol");
  }

  /** The file's size, the bytes put into it and the bytes received. Default: 0, 0, 0. */
  public JournalLineBuilder bytes(long fileSize, long bytes, long received) {
    this.fileSize = fileSize;
    this.bytes = bytes;
    this.received = received;
    return this;
  }

  /**
   * The first request's start, the last one's end, and the busy milliseconds. Default: the epoch,
   * twice, and 0.
   */
  public JournalLineBuilder time(Instant start, Instant end, long busyMillis) {
    this.start = Objects.requireNonNull(start, "start");
    this.end = Objects.requireNonNull(end, "end");
    this.busyMillis = busyMillis;
    return this;
  }

  /** Requests made, failed ones, and the most open at once. Default: 1, 0, 1. */
  public JournalLineBuilder requests(int requests, int failures, int connections) {
    this.requests = requests;
    this.failures = failures;
    this.connections = connections;
    return this;
  }

  /**
   * The shared milliseconds, the most replicas and the most flows at once. Default: 0, 1, 1
   * (alone).
   */
  public JournalLineBuilder sharing(long sharedMillis, int replicas, int flows) {
    this.sharedMillis = sharedMillis;
    this.replicas = replicas;
    this.flows = flows;
    return this;
  }

  /** Parallel streams per request. Default: 1. */
  public JournalLineBuilder streams(int streams) {
    this.streams = streams;
    return this;
  }

  /** "ok" or "error: reason". Default: "ok". */
  public JournalLineBuilder result(String result) {
    this.result = Objects.requireNonNull(result, "result");
    return this;
  }

  /**
   * The line.
   *
   * @throws IllegalArgumentException naming the field when {@link JournalLine#parse} would refuse
   *     it
   */
  public JournalLine build() {
    return new JournalLine(
        2,
        download,
        url,
        server,
        peer,
        path,
        -1,
        fileSize,
        bytes,
        received,
        start,
        end,
        busyMillis,
        requests,
        failures,
        connections,
        sharedMillis,
        replicas,
        flows,
        streams,
        protocol,
        result);
  }
}
