/**
 * Transfer-log parsers (GridFTP, nginx, Apache, Braid journal) and incremental, rotation-aware
 * reading of log files.
 */
package org.braid.infoprovider.logs;
