/**
 * Probes that give the forecasts their context (paper 003, section 3.2): network (TCP connect time
 * and a timed 64 KiB range GET, like the NWS probes), iperf3 results, and disk load from
 * /proc/diskstats (the iostat equivalent), scheduled with Quartz.
 */
package org.braid.provider.probe;
