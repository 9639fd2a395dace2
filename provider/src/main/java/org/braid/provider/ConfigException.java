package org.braid.provider;

/**
 * A bad configuration value, naming the key it belongs to within its YAML mapping (e.g. {@code
 * port} of {@code http}), so that the reader can point at the key's line.
 */
final class ConfigException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  /** The key within the mapping being built, e.g. {@code port}. */
  final String key;

  ConfigException(String key, String message) {
    super(message);
    this.key = key;
  }
}
