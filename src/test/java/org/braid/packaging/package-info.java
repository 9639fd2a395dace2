/**
 * End-to-end tests of the release tarball and the Debian package that {@code cli} builds: installed
 * read-only, started from the installed files, checked with dpkg-deb and systemd-analyze.
 */
package org.braid.packaging;
