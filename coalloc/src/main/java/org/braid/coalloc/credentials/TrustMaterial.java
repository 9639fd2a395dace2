package org.braid.coalloc.credentials;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * CA certificates to trust: a PEM bundle, or a directory as OpenSSL reads it ({@code
 * /etc/grid-security/certificates}, {@code X509_CERT_DIR}): the files with hashed names ({@code
 * 1a2b3c4d.0}, made by {@code openssl rehash} or {@code c_rehash}). Policy files ({@code
 * .signing_policy}, {@code .namespaces}) and CRLs ({@code .r0}) are not needed and not read.
 */
public final class TrustMaterial {
  private static final Pattern HASHED = Pattern.compile("[0-9a-f]{8}\\.[0-9]+");

  /** More files than this in a CA directory is not a CA directory (IGTF has a few hundred). */
  private static final int MAX_FILES = 20_000;

  private TrustMaterial() {}

  /**
   * The certificates in a PEM file or a CA directory.
   *
   * @throws IllegalArgumentException naming the path if it is unreadable or holds no certificate
   */
  public static List<X509Certificate> load(Path fileOrDirectory) {
    List<X509Certificate> out = new ArrayList<>();
    try {
      if (Files.isDirectory(fileOrDirectory)) {
        List<Path> files = hashedNames(fileOrDirectory);
        for (Path f : files) {
          out.addAll(read(f));
        }
        if (out.isEmpty()) {
          throw new IllegalArgumentException(
              "no CA certificate in directory "
                  + fileOrDirectory
                  + " (looked for OpenSSL hashed names like 1a2b3c4d.0, else *.pem and *.crt;"
                  + " make them with: openssl rehash "
                  + fileOrDirectory
                  + ")");
        }
      } else {
        String text = new String(Pem.readBounded(fileOrDirectory), StandardCharsets.US_ASCII);
        out.addAll(Pem.certificates(Pem.blocks(text, fileOrDirectory), fileOrDirectory));
        if (out.isEmpty()) {
          throw new IllegalArgumentException("no certificate in CA bundle " + fileOrDirectory);
        }
      }
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "cannot read CA certificates " + fileOrDirectory + ": " + Pem.describe(e));
    }
    return out;
  }

  /** The hashed names in the directory, sorted; if there is none, its *.pem and *.crt files. */
  private static List<Path> hashedNames(Path dir) throws IOException {
    List<Path> hashed = new ArrayList<>();
    List<Path> pem = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : (Iterable<Path>) s.limit(MAX_FILES + 1L)::iterator) {
        String n = p.getFileName().toString();
        if (HASHED.matcher(n).matches()) {
          hashed.add(p);
        } else if (n.endsWith(".pem") || n.endsWith(".crt")) {
          pem.add(p);
        }
      }
    }
    List<Path> out = hashed.isEmpty() ? pem : hashed;
    out.sort(null);
    return out;
  }

  private static List<X509Certificate> read(Path f) throws IOException {
    if (!Files.isRegularFile(f)) {
      return List.of(); // a dangling link
    }
    String text = new String(Pem.readBounded(f), StandardCharsets.US_ASCII);
    return Pem.certificates(Pem.blocks(text, f), f);
  }
}
