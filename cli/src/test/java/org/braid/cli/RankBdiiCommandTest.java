package org.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/** {@code braid rank --bdii}: its one-line errors (the ranking itself: the system tests). */
class RankBdiiCommandTest {

  private static String[] run(int expected, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = BraidCli.execute(new PrintWriter(out), new PrintWriter(err), args);
    assertEquals(expected, code, err.toString());
    return new String[] {out.toString(), err.toString()};
  }

  @Test
  void unreachableDirectory_exitsOneWithOneLine() throws Exception {
    int closed;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closed = s.getLocalPort();
    }
    String url = "ldap://127.0.0.1:" + closed + "/o=glue";
    String err = run(1, "rank", "--no-journal", "--bdii", url, "http://se.example.org/f")[1];
    assertTrue(
        err.startsWith("braid: directory " + url + ": cannot connect to 127.0.0.1:" + closed), err);
    assertEquals(1, err.lines().count(), err);
  }

  @Test
  void badUsage_exitsTwo() {
    String noBase = run(2, "rank", "--bdii", "ldap://127.0.0.1:2170", "http://h/f")[1];
    assertEquals(
        "braid: --bdii: directory URL names no base DN, e.g. ldap://HOST:2170/o=glue:"
            + " ldap://127.0.0.1:2170\n",
        noBase);
    String both =
        run(
            2,
            "rank",
            "--bdii",
            "ldap://127.0.0.1:2170/o=glue",
            "--provider",
            "h=http://h:8790",
            "http://h/f")[1];
    assertEquals(
        "braid: --bdii reads every provider from the directory: drop --provider, --provider-port"
            + " and --no-conventional\n",
        both);
  }
}
