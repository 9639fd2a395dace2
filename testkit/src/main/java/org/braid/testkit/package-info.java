/**
 * Test support shared by Braid's modules (test scope only): {@link org.braid.testkit.RealComponent}
 * (a missing real component fails the test under {@code CI=true} and skips it elsewhere, naming how
 * to install it) and launchers for real servers on 127.0.0.1 ({@link
 * org.braid.testkit.NginxServer}, {@link org.braid.testkit.GlobusGridFtpServer}, {@link
 * org.braid.testkit.XrootdServer}).
 *
 * <p>A new launcher (xrootd, slapd, prometheus...) is one class here: find the executable with
 * {@link org.braid.testkit.RealComponent#executable}, pick ports with {@link
 * org.braid.testkit.Loopback#freePort}, write its configuration under a directory the test gives,
 * start it with {@link org.braid.testkit.ServerProcess#start} (which waits for the ports and shows
 * the server's logs if it does not come up), and close the {@code ServerProcess} in {@code
 * close()}; add the Debian package to {@code .ci/install}. See docs/testing.md.
 */
package org.braid.testkit;
