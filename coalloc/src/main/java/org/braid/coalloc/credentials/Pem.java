package org.braid.coalloc.credentials;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PEM files: certificates and unencrypted private keys in the forms OpenSSL writes them ({@code RSA
 * PRIVATE KEY} as in grid proxies, {@code PRIVATE KEY}, {@code EC PRIVATE KEY}).
 */
final class Pem {
  private static final Pattern BLOCK =
      Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----\\R(.*?)-----END \\1-----", Pattern.DOTALL);

  /** Files larger than this are not PEM credentials (a proxy is a few kB, a CA bundle < 1 MB). */
  static final long MAX_BYTES = 16L << 20;

  private Pem() {}

  /** One block: its label and its bytes; {@code encrypted} if it has OpenSSL's Proc-Type header. */
  record Block(String label, byte[] der, boolean encrypted) {}

  /** Whether the file starts like a PEM file (after blank lines). */
  static boolean looksLikePem(byte[] content) {
    String head =
        new String(content, 0, Math.min(content.length, 4096), StandardCharsets.US_ASCII).strip();
    return head.startsWith("-----BEGIN ") || head.contains("\n-----BEGIN ");
  }

  /** An I/O failure in plain words: "no such file", "permission denied", else its message. */
  static String describe(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "no such file";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }

  static byte[] readBounded(Path file) throws IOException {
    if (Files.size(file) > MAX_BYTES) {
      throw new IOException(file + " is larger than " + (MAX_BYTES >> 20) + " MiB");
    }
    return Files.readAllBytes(file);
  }

  /**
   * The blocks of a PEM text, in order.
   *
   * @throws IllegalArgumentException if a block's base64 is damaged
   */
  static List<Block> blocks(String text, Path from) {
    List<Block> out = new ArrayList<>();
    Matcher m = BLOCK.matcher(text);
    while (m.find()) {
      String body = m.group(2);
      boolean encrypted = false;
      StringBuilder b64 = new StringBuilder();
      for (String line : body.split("\\R")) {
        if (line.contains(":")) {
          encrypted |= line.startsWith("Proc-Type:") && line.contains("ENCRYPTED");
        } else {
          b64.append(line.strip());
        }
      }
      try {
        out.add(new Block(m.group(1), Base64.getDecoder().decode(b64.toString()), encrypted));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            from + ": damaged base64 in the " + m.group(1) + " block");
      }
    }
    return out;
  }

  static List<X509Certificate> certificates(List<Block> blocks, Path from) {
    List<X509Certificate> out = new ArrayList<>();
    try {
      CertificateFactory cf = CertificateFactory.getInstance("X.509");
      for (Block b : blocks) {
        if (b.label().equals("CERTIFICATE") || b.label().equals("TRUSTED CERTIFICATE")) {
          out.add((X509Certificate) cf.generateCertificate(new ByteArrayInputStream(b.der())));
        }
      }
    } catch (CertificateException e) {
      throw new IllegalArgumentException(from + ": unreadable certificate: " + e.getMessage());
    }
    return out;
  }

  /**
   * The private key among the blocks, or null if there is none.
   *
   * @throws IllegalArgumentException if it is encrypted or unreadable
   */
  static PrivateKey privateKey(List<Block> blocks, Path from) {
    for (Block b : blocks) {
      String label = b.label();
      if (label.equals("ENCRYPTED PRIVATE KEY")
          || (label.endsWith("PRIVATE KEY") && b.encrypted())) {
        throw new IllegalArgumentException(
            from
                + ": the private key is encrypted; make a proxy (voms-proxy-init, grid-proxy-init)"
                + " or decrypt it (openssl pkey -in KEY -out PLAIN.key, readable by you only)");
      }
      try {
        switch (label) {
          case "RSA PRIVATE KEY":
            return key(
                "RSA", Der.pkcs8(Der.tlv(Der.SEQUENCE, Der.RSA_OID, new byte[] {5, 0}), b.der()));
          case "EC PRIVATE KEY":
            return key("EC", sec1ToPkcs8(b.der()));
          case "PRIVATE KEY":
            return pkcs8(b.der());
          default:
            break;
        }
      } catch (GeneralSecurityException | IllegalArgumentException e) {
        throw new IllegalArgumentException(
            from + ": unreadable " + label + " (" + e.getMessage() + ")");
      }
    }
    return null;
  }

  private static PrivateKey key(String algorithm, byte[] pkcs8) throws GeneralSecurityException {
    return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
  }

  /** A PKCS#8 key of any algorithm the JDK reads. */
  private static PrivateKey pkcs8(byte[] der) throws GeneralSecurityException {
    GeneralSecurityException last = null;
    for (String alg : new String[] {"RSA", "EC", "Ed25519", "Ed448", "RSASSA-PSS"}) {
      try {
        return key(alg, der);
      } catch (GeneralSecurityException e) {
        last = e;
      }
    }
    throw last;
  }

  /** SEC1 ECPrivateKey (RFC 5915) to PKCS#8, taking the curve from its parameters. */
  private static byte[] sec1ToPkcs8(byte[] sec1) {
    for (Der.Element e : Der.sequence(sec1)) {
      if (e.tag() == 0xa0) {
        byte[] curve = e.content();
        return Der.pkcs8(Der.tlv(Der.SEQUENCE, Der.EC_OID, curve), sec1);
      }
    }
    throw new IllegalArgumentException("the EC key does not name its curve");
  }
}
