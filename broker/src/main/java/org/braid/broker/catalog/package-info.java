/**
 * Replica catalogs: Metalink 4 files (RFC 5854), JSON or YAML catalogs mapping logical names to
 * physical URLs, and plain URL lists, all read with size limits and hostile-input checks.
 */
package org.braid.broker.catalog;
