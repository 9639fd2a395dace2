package org.braid.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.braid.cli.mirror.Mirror;

/**
 * Not a command: a dataset run for the launcher's class-data archive (cli/src/dist/lib/launcher.sh,
 * {@code braid_cds}), run with {@code -XX:DumpLoadedClassList}. Two files, each on two local HTTP
 * mirrors on 127.0.0.1, fetched with {@code braid get -i LIST -d DIR} as a user's dataset is, so
 * that the archive holds what a dataset over HTTP loads before its first byte (the job's HTTP path,
 * the lambdas of the HTTP client, the batch plan's discovery) and not only what the demo and
 * local-file runs load. Reads and writes only under the directory it is given, which it leaves for
 * the caller to remove; its only connections are to its own mirrors. Usage: {@code java -cp
 * braid.jar org.braid.cli.CdsTraining DIR}; exit code 0 when the dataset arrived.
 */
public final class CdsTraining {
  private CdsTraining() {}

  public static void main(String[] args) throws Exception {
    System.exit(run(Path.of(args[0])));
  }

  static int run(Path dir) throws IOException, NoSuchAlgorithmException {
    // a get of one file without --json asks whether standard error is a terminal, which no
    // training run does (they all write --json or to a dataset's report): without this, such a get
    // would load the class from the jar, which the JVM opens for it (10-20 ms)
    Terminal.stderrIsTerminal();
    Path src = Files.createDirectories(dir.resolve("www"));
    List<Mirror> mirrors = new ArrayList<>();
    StringBuilder list = new StringBuilder();
    try {
      for (int i = 0; i < 2; i++) {
        byte[] body = new byte[(i + 1) << 16];
        body[0] = (byte) i;
        Path f = Files.write(src.resolve("f" + i + ".bin"), body);
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
        Mirror a = Mirror.builder(f).start();
        mirrors.add(a);
        Mirror b = Mirror.builder(f).start();
        mirrors.add(b);
        list.append(a.uri()).append('\t').append(b.uri()).append('\n');
        list.append("  out=d").append(i).append("/f").append(i).append(".bin\n");
        list.append("  checksum=sha-256=").append(sha).append('\n');
      }
      Path l = Files.writeString(dir.resolve("list.txt"), list);
      StringWriter out = new StringWriter();
      return BraidCli.execute(
          new PrintWriter(out),
          new PrintWriter(out),
          "get",
          "-i",
          l.toString(),
          "-d",
          dir.resolve("out").toString(),
          "--no-journal",
          "--json",
          // the plan's discovery asks a mirror (a 404), never another local service
          "--provider-port",
          String.valueOf(mirrors.get(0).uri().getPort()));
    } finally {
      for (Mirror m : mirrors) {
        m.close();
      }
    }
  }
}
