/**
 * Publication of the statistics: JSON, ClassAd storage ads, Prometheus text, LDIF (paper 003,
 * Figure 3) and the read-only HTTP server that serves them.
 */
package org.braid.provider.publish;
