package org.braid.coalloc;

/**
 * A consistent copy of one flow's counters, for reports and progress.
 *
 * @param replica index of the flow's replica
 * @param bytesWritten bytes the flow wrote to the file
 * @param bytesReceived bytes the flow received, including its open request's so far
 * @param blocks requests that wrote something
 */
record FlowCounters(int replica, long bytesWritten, long bytesReceived, int blocks) {}
