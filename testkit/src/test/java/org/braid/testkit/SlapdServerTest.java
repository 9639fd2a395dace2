package org.braid.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The slapd launcher: a throwaway directory on 127.0.0.1 that ldapadd and ldapsearch reach. */
class SlapdServerTest {

  @TempDir Path dir;

  @Test
  void start_addAndSearch_thenStop() throws Exception {
    SlapdServer.Result r;
    SlapdServer ldap = SlapdServer.builder(dir.resolve("slapd")).suffix("o=test").start();
    try {
      assertTrue(Loopback.accepts(ldap.port()));
      Path ldif =
          Files.writeString(
              dir.resolve("e.ldif"),
              "dn: o=test\nobjectClass: organization\no: test\n\n"
                  + "dn: ou=a,o=test\nobjectClass: organizationalUnit\nou: a\n");
      r = ldap.ldapadd("o=test", ldif, false);
      assertEquals(0, r.exit(), r.output());
      assertTrue(ldap.ldapsearch("o=test", "(ou=a)", "ou").contains("\nou: a\n"));
      r = ldap.ldapadd("o=test", ldif, true);
      assertEquals(68, r.exit(), r.output()); // both exist now: "Already exists"
    } finally {
      ldap.close();
    }
    assertTrue(!Loopback.accepts(ldap.port()), "slapd still listening after close");
  }
}
