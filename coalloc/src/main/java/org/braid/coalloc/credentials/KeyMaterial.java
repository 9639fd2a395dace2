package org.braid.coalloc.credentials;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A client's private key and certificate chain, leaf first: a user certificate, or an RFC 3820
 * proxy followed by the certificates that signed it.
 *
 * @param key the private key of {@code chain.get(0)}
 * @param chain the certificates presented, leaf first
 * @param from the file it was read from (for messages)
 */
public record KeyMaterial(PrivateKey key, List<X509Certificate> chain, Path from) {
  public KeyMaterial {
    chain = List.copyOf(chain);
    if (chain.isEmpty()) {
      throw new IllegalArgumentException(from + ": no certificate");
    }
  }

  /**
   * Reads a client credential: a PEM file with the certificate(s) and the key (a grid proxy: proxy
   * certificate, its key, then the issuing certificates, in any order), or a PEM certificate file
   * plus a separate PEM key file, or a PKCS#12 file.
   *
   * @param certificate the PEM or PKCS#12 file
   * @param keyFile a PEM file with the key if {@code certificate} has none, or null
   * @param password the PKCS#12 password, or null for none
   * @throws IllegalArgumentException naming the file and the problem: unreadable, no key, no
   *     certificate for the key, an encrypted PEM key, an expired certificate
   */
  public static KeyMaterial load(Path certificate, Path keyFile, String password) {
    byte[] content;
    try {
      content = Pem.readBounded(certificate);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "cannot read client certificate " + certificate + ": " + Pem.describe(e));
    }
    KeyMaterial m =
        Pem.looksLikePem(content)
            ? pem(certificate, new String(content, StandardCharsets.US_ASCII), keyFile)
            : pkcs12(certificate, content, password);
    m.checkValidity();
    return m;
  }

  private static KeyMaterial pem(Path file, String text, Path keyFile) {
    List<Pem.Block> blocks = Pem.blocks(text, file);
    List<X509Certificate> certs = Pem.certificates(blocks, file);
    PrivateKey key = Pem.privateKey(blocks, file);
    Path keyFrom = file;
    if (keyFile != null) {
      try {
        key =
            Pem.privateKey(
                Pem.blocks(
                    new String(Pem.readBounded(keyFile), StandardCharsets.US_ASCII), keyFile),
                keyFile);
      } catch (IOException e) {
        throw new IllegalArgumentException(
            "cannot read client key " + keyFile + ": " + Pem.describe(e));
      }
      keyFrom = keyFile;
    }
    if (key == null) {
      throw new IllegalArgumentException(
          keyFrom + ": no private key (give the key file too, or a proxy that holds its key)");
    }
    if (certs.isEmpty()) {
      throw new IllegalArgumentException(file + ": no certificate");
    }
    return new KeyMaterial(key, chain(key, certs, file), file);
  }

  private static KeyMaterial pkcs12(Path file, byte[] content, String password) {
    char[] pw = password == null ? new char[0] : password.toCharArray();
    try {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(new ByteArrayInputStream(content), pw);
      for (String alias : Collections.list(ks.aliases())) {
        if (ks.isKeyEntry(alias)) {
          PrivateKey key = (PrivateKey) ks.getKey(alias, pw);
          List<X509Certificate> chain = new ArrayList<>();
          for (Certificate c : ks.getCertificateChain(alias)) {
            chain.add((X509Certificate) c);
          }
          return new KeyMaterial(key, chain, file);
        }
      }
      throw new IllegalArgumentException(file + ": no private key in the PKCS#12 file");
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalArgumentException(
          "cannot read client certificate "
              + file
              + " as PEM or PKCS#12 (password from BRAID_CLIENT_CERT_PASSWORD): "
              + e.getMessage());
    }
  }

  /** The certificate of the key, then its issuers among {@code certs}, in order. */
  private static List<X509Certificate> chain(
      PrivateKey key, List<X509Certificate> certs, Path file) {
    X509Certificate leaf = null;
    for (X509Certificate c : certs) {
      if (matches(key, c)) {
        leaf = c;
        break;
      }
    }
    if (leaf == null) {
      throw new IllegalArgumentException(file + ": no certificate matches the private key");
    }
    List<X509Certificate> chain = new ArrayList<>(List.of(leaf));
    X509Certificate at = leaf;
    while (!at.getIssuerX500Principal().equals(at.getSubjectX500Principal())) {
      X509Certificate next = null;
      for (X509Certificate c : certs) {
        if (!chain.contains(c) && c.getSubjectX500Principal().equals(at.getIssuerX500Principal())) {
          next = c;
          break;
        }
      }
      if (next == null) {
        break;
      }
      chain.add(next);
      at = next;
    }
    return chain;
  }

  /** Whether the certificate holds the public half of the key: a signature made and checked. */
  private static boolean matches(PrivateKey key, X509Certificate c) {
    String alg =
        switch (key.getAlgorithm()) {
          case "RSA" -> "SHA256withRSA";
          case "EC" -> "SHA256withECDSA";
          default -> key.getAlgorithm();
        };
    try {
      byte[] probe = "braid key check".getBytes(StandardCharsets.US_ASCII);
      Signature s = Signature.getInstance(alg);
      s.initSign(key);
      s.update(probe);
      byte[] sig = s.sign();
      Signature v = Signature.getInstance(alg);
      v.initVerify(c.getPublicKey());
      v.update(probe);
      return v.verify(sig);
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  private void checkValidity() {
    X509Certificate leaf = chain.get(0);
    try {
      leaf.checkValidity();
    } catch (CertificateExpiredException e) {
      throw new IllegalArgumentException(
          from
              + ": the certificate "
              + leaf.getSubjectX500Principal().getName()
              + " expired at "
              + leaf.getNotAfter().toInstant()
              + (isProxy(leaf) ? " (renew the proxy: voms-proxy-init)" : ""));
    } catch (CertificateNotYetValidException e) {
      throw new IllegalArgumentException(
          from + ": the certificate is not valid before " + leaf.getNotBefore().toInstant());
    }
  }

  /** Whether the certificate is an RFC 3820 proxy (it has the ProxyCertInfo extension). */
  public static boolean isProxy(X509Certificate c) {
    return c.getExtensionValue("1.3.6.1.5.5.7.1.14") != null;
  }
}
