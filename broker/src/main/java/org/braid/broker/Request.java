package org.braid.broker;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.braid.broker.catalog.CatalogFile;
import org.braid.broker.catalog.Replica;
import org.braid.matchmaking.ClassAdParseException;
import org.braid.matchmaking.ClassAds;
import org.braid.matchmaking.Expr;
import org.braid.matchmaking.ParseOptions;

/**
 * What an application asks the broker: the replicas of one file, its size, and its ClassAd
 * requirements and rank (paper 003, section 2.3). Expressions see the storage ad as {@code other}
 * and may use the paper's notation ({@code 5M/sec}).
 *
 * @param replicas the replicas to choose from, at least one
 * @param size the file size in bytes, or -1 when unknown (then the smallest size class is used)
 * @param requirements the request's Requirements (default {@code true})
 * @param rank the request's Rank (default {@code other.PredictedBandwidth})
 */
public record Request(List<Replica> replicas, long size, Expr requirements, Expr rank) {

  /** The default rank: the predicted bandwidth for the file's size class. */
  public static final String DEFAULT_RANK = "other.PredictedBandwidth";

  /**
   * Checks the request.
   *
   * @throws NullPointerException if an argument or a replica is null
   * @throws IllegalArgumentException if there is no replica or size is below -1
   */
  public Request {
    replicas = List.copyOf(replicas);
    if (replicas.isEmpty()) {
      throw new IllegalArgumentException("request needs at least one replica");
    }
    if (size < -1) {
      throw new IllegalArgumentException("file size must be -1 (unknown) or more: " + size);
    }
    Objects.requireNonNull(requirements, "requirements");
    Objects.requireNonNull(rank, "rank");
  }

  /** A builder for a request over these replicas. */
  public static Builder builder(List<Replica> replicas) {
    return new Builder(replicas);
  }

  /** A builder for a request for a catalog file: its replicas and size. */
  public static Builder builder(CatalogFile file) {
    return new Builder(file.replicas()).size(file.size());
  }

  /** Builds a {@link Request}. Not thread-safe. */
  public static final class Builder {
    private final List<Replica> replicas;
    private long size = -1;
    private String requirements = "true";
    private String rank = DEFAULT_RANK;

    private Builder(List<Replica> replicas) {
      this.replicas = new ArrayList<>(Objects.requireNonNull(replicas, "replicas"));
    }

    /** The file size in bytes; -1 for unknown. Default: -1. */
    public Builder size(long size) {
      this.size = size;
      return this;
    }

    /**
     * The Requirements expression, in ClassAd syntax with the paper's suffixes allowed, e.g. {@code
     * other.AvgRDBandwidth > 5M/sec}. Default: {@code true}.
     */
    public Builder requirements(String expr) {
      this.requirements = Objects.requireNonNull(expr, "requirements");
      return this;
    }

    /** The Rank expression. Default: {@link #DEFAULT_RANK}. */
    public Builder rank(String expr) {
      this.rank = Objects.requireNonNull(expr, "rank");
      return this;
    }

    /**
     * The request.
     *
     * @throws IllegalArgumentException if an expression does not parse (with the parser's line,
     *     column and reason), or a check of {@link Request} fails
     */
    public Request build() {
      return new Request(replicas, size, parse("requirements", requirements), parse("rank", rank));
    }

    private static Expr parse(String what, String text) {
      try {
        return ClassAds.parseExpression(text, ParseOptions.PAPER.withMaxLength(64 * 1024));
      } catch (ClassAdParseException e) {
        throw new IllegalArgumentException(what + ": " + e.getMessage().replace('\n', ' '), e);
      }
    }
  }
}
