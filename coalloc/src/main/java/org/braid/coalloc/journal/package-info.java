/**
 * The client journal's line, defined once: the downloader writes it and the provider's and the
 * broker's history read it with the same class.
 */
package org.braid.coalloc.journal;
