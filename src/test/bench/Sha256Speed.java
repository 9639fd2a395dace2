/*
 * How fast this machine's JDK hashes with SHA-256, the floor of a verified download at memory
 * speed (issue 17's unshaped scenario): a whole-file digest is sequential, so a download that
 * verifies N bytes cannot end before one core has hashed them. Not a test; run it by hand with
 *   java src/test/bench/Sha256Speed.java [MiB]      (default 2000, the local scenario's file)
 * It prints the time for MiB updates of 1 MiB from a heap array, three times, then twice from a
 * direct buffer (the two ways the download's hash thread can be fed).
 */
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.Random;

public class Sha256Speed {
  public static void main(String[] args) throws Exception {
    int mib = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
    byte[] block = new byte[1 << 20];
    new Random(1).nextBytes(block);
    for (int round = 0; round < 3; round++) {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      long t = System.nanoTime();
      for (int i = 0; i < mib; i++) {
        md.update(block);
      }
      md.digest();
      System.out.printf("heap:   %d MiB in %.3f s%n", mib, (System.nanoTime() - t) / 1e9);
    }
    ByteBuffer direct = ByteBuffer.allocateDirect(block.length);
    direct.put(block);
    for (int round = 0; round < 2; round++) {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      long t = System.nanoTime();
      for (int i = 0; i < mib; i++) {
        direct.clear();
        md.update(direct);
      }
      md.digest();
      System.out.printf("direct: %d MiB in %.3f s%n", mib, (System.nanoTime() - t) / 1e9);
    }
  }
}
