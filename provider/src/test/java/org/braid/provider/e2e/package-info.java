/**
 * End-to-end tests against real servers on loopback (globus-gridftp-server, nginx): real logs in,
 * statistics out through every publication channel.
 */
package org.braid.provider.e2e;
