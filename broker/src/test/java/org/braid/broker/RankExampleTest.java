package org.braid.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RankExampleTest {

  @TempDir Path dir;

  @Test
  void docsExample_runsOnACatalogWithProviders() throws Exception {
    try (FakeServers fake = new FakeServers()) {
      String p1 = fake.answering("[" + BrokerTest.ad(8e6, 8e6, 10) + "]").toString();
      String p2 = fake.answering("[" + BrokerTest.ad(4e6, 4e6, 10) + "]").toString();
      Path cat = dir.resolve("cat.json");
      Files.writeString(
          cat,
          "{\"files\": {\"run42.h5\": {\"size\": 10000000, \"replicas\": ["
              + "{\"url\": \"http://a.example/run42.h5\", \"provider\": \""
              + p1
              + "\"},"
              + "{\"url\": \"http://b.example/run42.h5\", \"provider\": \""
              + p2
              + "\"}]}}}");
      PrintStream old = System.out;
      ByteArrayOutputStream buf = new ByteArrayOutputStream();
      System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
      try {
        RankExample.main(new String[] {cat.toString()});
      } finally {
        System.setOut(old);
      }
      assertEquals(
          "match  http://a.example/run42.h5                         8.00 MB/s  provider\n"
              + "reject http://b.example/run42.h5                         4.00 MB/s  request clause other.AvgRDBandwidth > 5000000 is false (other.AvgRDBandwidth = 4.000000000000000E+06)\n"
              + "use http://a.example/run42.h5                         8.00 MB/s  10000000 bytes\n",
          buf.toString(StandardCharsets.UTF_8));
    }
  }
}
