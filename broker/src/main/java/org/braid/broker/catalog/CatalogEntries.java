package org.braid.broker.catalog;

/**
 * The files of a catalog read one at a time ({@link Catalogs#openInputList}), so that a caller can
 * start on the first files of a long list while the rest is still read. Not thread-safe.
 */
public interface CatalogEntries {
  /**
   * The next file, or null after the last. A problem in the input is found when the reading reaches
   * it.
   *
   * @throws CatalogException naming the input and the line of the problem
   */
  CatalogFile next() throws CatalogException;
}
