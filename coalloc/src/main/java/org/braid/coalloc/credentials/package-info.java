/**
 * Grid credentials for HTTPS replicas, plain JSSE: PEM certificates and keys (PKCS#1, PKCS#8,
 * SEC1), RFC 3820 proxy chains as {@code voms-proxy-init} writes them, PKCS#12 files, CA
 * directories with OpenSSL hashed names ({@code /etc/grid-security/certificates}), and the
 * environment a grid user has: {@code X509_USER_PROXY}, {@code X509_CERT_DIR}, WLCG bearer-token
 * discovery and the {@code http_proxy} family with {@code no_proxy}.
 *
 * <p>The entry points are {@link org.braid.coalloc.credentials.GridEnvironment}, {@link
 * org.braid.coalloc.credentials.KeyMaterial} and {@link
 * org.braid.coalloc.credentials.TrustMaterial}.
 */
package org.braid.coalloc.credentials;
