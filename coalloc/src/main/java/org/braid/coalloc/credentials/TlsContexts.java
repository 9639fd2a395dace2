package org.braid.coalloc.credentials;

import java.io.IOException;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509TrustManager;

/** TLS contexts from {@link KeyMaterial} and {@link TrustMaterial}. */
public final class TlsContexts {
  private static final String ALIAS = "client";

  private TlsContexts() {}

  /**
   * A TLS context presenting {@code keys} (null: none) and trusting {@code anchors} (null: the
   * system's trust store), plus the system's if {@code withSystemTrust}.
   *
   * @throws IllegalArgumentException if the JDK refuses the material
   */
  public static SSLContext context(
      KeyMaterial keys, List<X509Certificate> anchors, boolean withSystemTrust) {
    try {
      TrustManager[] trust = null;
      if (anchors != null) {
        KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
        ks.load(null, null);
        int i = 0;
        for (X509Certificate c : anchors) {
          ks.setCertificateEntry("ca" + i++, c);
        }
        if (withSystemTrust) {
          for (X509Certificate c : systemTrust().getAcceptedIssuers()) {
            ks.setCertificateEntry("ca" + i++, c);
          }
        }
        TrustManagerFactory tmf =
            TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ks);
        trust = tmf.getTrustManagers();
      }
      KeyManager[] km = keys == null ? null : new KeyManager[] {new OneKey(keys)};
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(km, trust, null);
      return ctx;
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalArgumentException("cannot set up TLS: " + e.getMessage(), e);
    }
  }

  private static X509TrustManager systemTrust() throws GeneralSecurityException {
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init((KeyStore) null);
    for (TrustManager t : tmf.getTrustManagers()) {
      if (t instanceof X509TrustManager x) {
        return x;
      }
    }
    throw new GeneralSecurityException("no system X.509 trust manager");
  }

  /**
   * Presents the one credential whatever the server asks: a proxy chain's leaf is signed by the
   * user, not by a CA the server names, so the JDK's choice by issuer must not drop it.
   */
  private static final class OneKey extends X509ExtendedKeyManager {
    private final KeyMaterial keys;

    OneKey(KeyMaterial keys) {
      this.keys = keys;
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
      return new String[] {ALIAS};
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
      return choose(keyType);
    }

    @Override
    public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine e) {
      return choose(keyType);
    }

    private String choose(String[] keyTypes) {
      for (String t : keyTypes) {
        if (t.equals(keys.key().getAlgorithm())) {
          return ALIAS;
        }
      }
      return null;
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
      return null;
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
      return null;
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
      return ALIAS.equals(alias) ? keys.chain().toArray(new X509Certificate[0]) : null;
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
      return ALIAS.equals(alias) ? keys.key() : null;
    }
  }
}
