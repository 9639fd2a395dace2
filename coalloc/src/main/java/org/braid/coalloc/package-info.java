/** The co-allocating downloader: range sources, schemes, scheduling, writing and verification. */
package org.braid.coalloc;
