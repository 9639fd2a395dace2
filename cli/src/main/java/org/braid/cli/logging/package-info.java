/**
 * The {@code braid} command's logging: logback configured from {@code BRAID_LOG} and {@code
 * BRAID_LOG_WIRE} (or from a logback file named by {@code BRAID_LOG_CONFIG}), clock-time lines on
 * standard error.
 */
package org.braid.cli.logging;
