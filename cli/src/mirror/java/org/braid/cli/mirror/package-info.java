/**
 * A small throttled HTTP mirror that runs inside the JVM on 127.0.0.1, with range support and
 * optional faults: used by {@code braid demo} and by tests.
 */
package org.braid.cli.mirror;
