package org.braid.system;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A dataset for the system tests: a tree of files in nested directories with log-normal sizes, some
 * names with spaces, Unicode and shell metacharacters, and replicas of it (hard links, so the tree
 * is on disk once) that may miss files or hold a corrupt copy.
 */
final class DatasetTree {
  final Path root;
  final Map<String, String> sha = new LinkedHashMap<>();
  final Map<String, Long> sizes = new LinkedHashMap<>();

  private DatasetTree(Path root) {
    this.root = root;
  }

  /**
   * Writes {@code files} files with sizes exp(N(ln median, 1.8)) within 1 KB and {@code max}, then
   * {@code large.length} files of the given sizes. Every 50th name has spaces or shell
   * metacharacters, or (with {@code unicode}) non-ASCII letters.
   */
  static DatasetTree create(
      Path root, int files, long median, long max, boolean unicode, long... large)
      throws IOException {
    DatasetTree t = new DatasetTree(Files.createDirectories(root));
    SplittableRandom r = new SplittableRandom(1984);
    String[] odd = {
      "with space", unicode ? "Ünïcödé-数据" : "plus+percent%20", "$HOME;&'(x)", "a\"b`c`"
    };
    for (int i = 0; i < files; i++) {
      double g = r.nextGaussian();
      long size = (long) Math.max(1024, Math.min(max, Math.exp(Math.log(median) + 1.8 * g)));
      String name = "run" + (i % 4) + "/lumi" + (i % 7) + "/" + (i % 3 == 0 ? "part/" : "");
      name += (i % 50 == 7 ? odd[(i / 50) % odd.length] + "-" : "f") + i + ".root";
      t.write(name, size, r);
    }
    for (int k = 0; k < large.length; k++) {
      t.write("large/big" + k + ".h5", large[k], r);
    }
    return t;
  }

  private void write(String name, long size, SplittableRandom r) throws IOException {
    Path p = root.resolve(name);
    Files.createDirectories(p.getParent());
    MessageDigest md = sha256();
    byte[] buf = new byte[64 * 1024];
    try (OutputStream o = Files.newOutputStream(p)) {
      for (long left = size; left > 0; ) {
        int n = (int) Math.min(buf.length, left);
        r.nextBytes(buf);
        o.write(buf, 0, n);
        md.update(buf, 0, n);
        left -= n;
      }
    }
    sha.put(name, HexFormat.of().formatHex(md.digest()));
    sizes.put(name, size);
  }

  /** A replica of the tree at {@code dir}: hard links to every file but those left out. */
  Path replica(Path dir, List<String> without) throws IOException {
    for (String n : sha.keySet()) {
      if (without.contains(n)) {
        continue;
      }
      Path p = dir.resolve(n);
      Files.createDirectories(p.getParent());
      Files.createLink(p, root.resolve(n));
    }
    return dir;
  }

  /**
   * Three replicas of the tree under {@code dir} (m0/data, m1/data, m2/data): the third misses
   * every {@code step}-th file from {@code first} on and holds a corrupt copy of file {@code
   * corrupt}.
   */
  Replicas threeReplicas(Path dir, int first, int step, int corrupt) throws IOException {
    List<String> names = names();
    List<String> missing = new ArrayList<>();
    for (int i = first; i < names.size(); i += step) {
      missing.add(names.get(i));
    }
    List<Path> roots = new ArrayList<>();
    for (int m = 0; m < 3; m++) {
      roots.add(replica(dir.resolve("m" + m + "/data"), m == 2 ? missing : List.of()));
    }
    corrupt(roots.get(2), names.get(corrupt));
    return new Replicas(roots, List.copyOf(missing), names.get(corrupt));
  }

  /** The replicas' data directories, what the third one misses, and its corrupt file. */
  record Replicas(List<Path> roots, List<String> missing, String corrupt) {}

  /** Replaces a replica's copy of a file with a corrupt one (one byte flipped). */
  static void corrupt(Path replica, String name) throws IOException {
    Path p = replica.resolve(name);
    byte[] b = Files.readAllBytes(p);
    b[b.length / 2] ^= 0x40;
    Files.delete(p);
    Files.write(p, b);
  }

  /** A sha256sum list of the tree. */
  Path checksums(Path file) throws IOException {
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, String> e : sha.entrySet()) {
      sb.append(e.getValue()).append("  ").append(e.getKey()).append('\n');
    }
    return Files.writeString(file, sb);
  }

  /** The names, in order. */
  List<String> names() {
    return new ArrayList<>(sha.keySet());
  }

  long total() {
    return sizes.values().stream().mapToLong(Long::longValue).sum();
  }

  /** Whether every file arrived under {@code out} with its SHA-256. */
  List<String> wrong(Path out) throws IOException {
    List<String> bad = new ArrayList<>();
    for (Map.Entry<String, String> e : sha.entrySet()) {
      Path p = out.resolve(e.getKey());
      if (!Files.isRegularFile(p)) {
        bad.add(e.getKey() + ": missing");
        continue;
      }
      MessageDigest md = sha256();
      md.update(Files.readAllBytes(p));
      if (!HexFormat.of().formatHex(md.digest()).equals(e.getValue())) {
        bad.add(e.getKey() + ": wrong content");
      }
    }
    return bad;
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
