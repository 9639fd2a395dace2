/** Transfer statistics per (volume, peer, operation, size class) and their forecasts. */
package org.braid.infoprovider.stats;
