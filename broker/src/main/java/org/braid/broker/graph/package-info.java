/**
 * The platform graph (JGraphT): hosts and links weighted by forecast capacity, shared-bottleneck
 * groups, the max-flow bound, widest paths through relays, the co-allocation set, and Min-Min batch
 * scheduling.
 */
package org.braid.broker.graph;
