package org.braid.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.braid.cli.mirror.Mirror;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code braid get -H} and {@code --bearer-token-file} through the command line: headers reach
 * every request of every file (one file, a dataset), malformed ones are refused in one line, and a
 * token goes over plain http only when {@code --allow-insecure-token} says so.
 */
class GetHeadersAndTokensTest {
  @TempDir Path dir;

  private Path file(String name, int size, int seed) throws Exception {
    byte[] b = new byte[size];
    new SplittableRandom(seed).nextBytes(b);
    return Files.write(dir.resolve(name), b);
  }

  /** Every request the mirror saw carried {@code name: value}, and there were some. */
  private static void everyRequestHad(Mirror m, String name, String value) {
    List<String> seen = m.recentHeader(name);
    assertFalse(seen.isEmpty(), "no request reached " + m.uri());
    assertEquals(List.of(value), seen.stream().distinct().toList(), name + " at " + m.uri());
  }

  @Test
  void header_oneFile_sentOnEveryRequestToEveryReplica() throws Exception {
    Path data = file("data.bin", 1_200_000, 1);
    Path out = dir.resolve("out.bin");
    try (Mirror a = Mirror.builder(data).rate(3e6).start();
        Mirror b = Mirror.builder(data).rate(3e6).start()) {
      GetCommandTest.Run r =
          GetCommandTest.run(
              "get",
              "-o",
              out.toString(),
              "--no-journal",
              "-H",
              "X-Experiment: atlas",
              "--header",
              "X-Site:  CERN-PROD ",
              a.uri().toString(),
              b.uri().toString());
      assertEquals(0, r.code(), r.err());
      assertArrayEquals(Files.readAllBytes(data), Files.readAllBytes(out));
      for (Mirror m : List.of(a, b)) {
        everyRequestHad(m, "X-Experiment", "atlas");
        everyRequestHad(m, "X-Site", "CERN-PROD");
      }
    }
  }

  @Test
  void header_dataset_sentOnEveryRequestOfEveryFile() throws Exception {
    Path one = file("one.bin", 300_000, 2);
    Path two = file("two.bin", 200_000, 3);
    try (Mirror a = Mirror.builder(one).start();
        Mirror b = Mirror.builder(two).start()) {
      Path list =
          Files.writeString(
              dir.resolve("list.txt"),
              a.uri() + "\n  out=one.bin\n" + b.uri() + "\n  out=sub/two.bin\n");
      Path into = dir.resolve("into");
      GetCommandTest.Run r =
          GetCommandTest.run(
              "get",
              "-d",
              into.toString(),
              "-i",
              list.toString(),
              "--no-journal",
              "--discovery-timeout",
              "0",
              "-H",
              "X-Experiment: cms");
      assertEquals(0, r.code(), r.err());
      assertArrayEquals(Files.readAllBytes(one), Files.readAllBytes(into.resolve("one.bin")));
      assertArrayEquals(Files.readAllBytes(two), Files.readAllBytes(into.resolve("sub/two.bin")));
      everyRequestHad(a, "X-Experiment", "cms");
      everyRequestHad(b, "X-Experiment", "cms");
    }
  }

  @Test
  void header_withoutColon_exitsTwoWithOneLine() {
    GetCommandTest.Run r =
        GetCommandTest.run("get", "-o", "x", "-H", "X-Experiment atlas", "http://127.0.0.1:9/f");
    assertEquals(2, r.code());
    assertEquals("braid: --header must look like 'Name: value': 'X-Experiment atlas'\n", r.err());
  }

  @Test
  void header_badNameOrSetByBraid_exitsTwoWithOneLine() {
    GetCommandTest.Run bad =
        GetCommandTest.run("get", "-o", "x", "-H", "X Exp: atlas", "http://127.0.0.1:9/f");
    assertEquals(2, bad.code());
    assertEquals("braid: not a valid header name: 'X Exp'\n", bad.err());
    GetCommandTest.Run range =
        GetCommandTest.run(
            "get",
            "-d",
            dir.resolve("d").toString(),
            "-H",
            "Range: bytes=0-",
            "-r",
            "http://127.0.0.1:9/");
    assertEquals(2, range.code());
    assertEquals("braid: header Range is set by braid itself\n", range.err());
  }

  @Test
  void token_plainHttp_refusedNamingTheUrl_unlessAllowed() throws Exception {
    Path data = file("data.bin", 300_000, 4);
    Path token = Files.writeString(dir.resolve("token"), "s3cret\n");
    Path out = dir.resolve("out.bin");
    try (Mirror m = Mirror.builder(data).bearerToken("s3cret").start()) {
      GetCommandTest.Run r =
          GetCommandTest.run(
              "get",
              "-o",
              out.toString(),
              "--no-journal",
              "--bearer-token-file",
              token.toString(),
              m.uri().toString());
      assertEquals(2, r.code());
      assertEquals(
          "braid: refusing to send the bearer token over plain http to "
              + m.uri()
              + " (tokens go over TLS only: use https:// or davs://, or --allow-insecure-token)\n",
          r.err());
      assertEquals(0, m.requests());

      GetCommandTest.Run ok =
          GetCommandTest.run(
              "get",
              "-o",
              out.toString(),
              "--no-journal",
              "--bearer-token-file",
              token.toString(),
              "--allow-insecure-token",
              m.uri().toString());
      assertEquals(0, ok.code(), ok.err());
      assertArrayEquals(Files.readAllBytes(data), Files.readAllBytes(out));
      everyRequestHad(m, "Authorization", "Bearer s3cret");
    }
  }

  @Test
  void token_dataset_plainHttp_refusedBeforeAnyRequest() throws Exception {
    Path data = file("data.bin", 100_000, 5);
    Path token = Files.writeString(dir.resolve("token"), "s3cret\n");
    try (Mirror m = Mirror.builder(data).start()) {
      Path list = Files.writeString(dir.resolve("list.txt"), m.uri() + "\n  out=a.bin\n");
      GetCommandTest.Run r =
          GetCommandTest.run(
              "get",
              "-d",
              dir.resolve("into").toString(),
              "-i",
              list.toString(),
              "--no-journal",
              "--discovery-timeout",
              "0",
              "--bearer-token-file",
              token.toString());
      assertEquals(2, r.code());
      assertTrue(
          r.err()
              .equals(
                  "braid: refusing to send the bearer token over plain http to "
                      + m.uri()
                      + " (tokens go over TLS only: use https:// or davs://, or"
                      + " --allow-insecure-token)\n"),
          r.err());
      assertEquals(0, m.requests());
    }
  }

  @Test
  void allowInsecureToken_withoutToken_exitsTwoWithOneLine() {
    GetCommandTest.Run r =
        GetCommandTest.run("get", "-o", "x", "--allow-insecure-token", "http://127.0.0.1:9/f");
    assertEquals(2, r.code());
    assertEquals(
        "braid: --allow-insecure-token needs --bearer-token-file, BRAID_BEARER_TOKEN or"
            + " -H 'Authorization: ...'\n",
        r.err());
  }

  @Test
  void authorizationHeader_plainHttp_refusedUnlessAllowed() throws Exception {
    Path data = file("data.bin", 100_000, 6);
    Path out = dir.resolve("out.bin");
    try (Mirror m = Mirror.builder(data).start()) {
      GetCommandTest.Run r =
          GetCommandTest.run(
              "get",
              "-o",
              out.toString(),
              "--no-journal",
              "-H",
              "authorization: Basic dXNlcjpwdw==",
              m.uri().toString());
      assertEquals(2, r.code(), r.err());
      assertEquals(
          "braid: refusing to send the Authorization header over plain http to "
              + m.uri()
              + " (tokens go over TLS only: use https:// or davs://, or"
              + " --allow-insecure-token)\n",
          r.err());
      assertEquals(0, m.requests());
      assertFalse(Files.exists(out));
      GetCommandTest.Run ok =
          GetCommandTest.run(
              "get",
              "-o",
              out.toString(),
              "--no-journal",
              "-H",
              "authorization: Basic dXNlcjpwdw==",
              "--allow-insecure-token",
              m.uri().toString());
      assertEquals(0, ok.code(), ok.err());
      assertArrayEquals(Files.readAllBytes(data), Files.readAllBytes(out));
      everyRequestHad(m, "authorization", "Basic dXNlcjpwdw==");
    }
  }
}
