/** The information provider: log parsers, probes, store, statistics and publication. */
package org.braid.infoprovider;
