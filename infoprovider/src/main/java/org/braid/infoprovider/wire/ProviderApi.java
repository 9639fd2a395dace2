package org.braid.infoprovider.wire;

/**
 * The provider's HTTP interface as both sides name it: the daemon serves these paths, the broker
 * asks them. Version 1; a change that old brokers cannot read gets a new path prefix.
 */
public final class ProviderApi {

  /** The port a provider listens on unless configured otherwise: {@value}. */
  public static final int DEFAULT_PORT = 8790;

  /** The storage ads (JSON array, {@link AdsJson}); {@code ?peer=HOST} filters by peer. */
  public static final String ADS = "/v1/ads";

  /** The statistics (JSON array, {@link StatsJson}). */
  public static final String STATS = "/v1/stats";

  /** The names of the probe series (JSON array of strings, {@link SeriesJson}). */
  public static final String SERIES = "/v1/series";

  /** Prefix of one probe series' points ({@link SeriesJson}). */
  public static final String SERIES_PREFIX = SERIES + "/";

  /** The Prometheus exposition. */
  public static final String METRICS = "/metrics";

  private ProviderApi() {}
}
