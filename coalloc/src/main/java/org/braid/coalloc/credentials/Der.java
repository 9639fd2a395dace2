package org.braid.coalloc.credentials;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The little DER this package needs: reading one level of a SEQUENCE, writing TLVs. */
final class Der {
  static final int INTEGER = 0x02;
  static final int OCTET_STRING = 0x04;
  static final int NULL = 0x05;
  static final int OID = 0x06;
  static final int SEQUENCE = 0x30;

  /** rsaEncryption, 1.2.840.113549.1.1.1. */
  static final byte[] RSA_OID = {
    0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01
  };

  /** id-ecPublicKey, 1.2.840.10045.2.1. */
  static final byte[] EC_OID = {0x06, 0x07, 0x2a, (byte) 0x86, 0x48, (byte) 0xce, 0x3d, 0x02, 0x01};

  private Der() {}

  /** One element: its tag, and its whole encoding. */
  record Element(int tag, byte[] encoded, int contentStart) {
    byte[] content() {
      return Arrays.copyOfRange(encoded, contentStart, encoded.length);
    }
  }

  /**
   * The elements inside the SEQUENCE {@code der}.
   *
   * @throws IllegalArgumentException if it is not a well-formed SEQUENCE
   */
  static List<Element> sequence(byte[] der) {
    Element outer = read(der, 0);
    if (outer.tag() != SEQUENCE || outer.encoded().length != der.length) {
      throw new IllegalArgumentException("not a DER SEQUENCE");
    }
    byte[] c = outer.content();
    List<Element> out = new ArrayList<>();
    for (int i = 0; i < c.length; ) {
      Element e = read(c, i);
      out.add(e);
      i += e.encoded().length;
    }
    return out;
  }

  private static Element read(byte[] b, int at) {
    if (at + 2 > b.length) {
      throw new IllegalArgumentException("truncated DER");
    }
    int tag = b[at] & 0xff;
    int len = b[at + 1] & 0xff;
    int head = 2;
    if (len >= 0x80) {
      int n = len & 0x7f;
      if (n == 0 || n > 4 || at + 2 + n > b.length) {
        throw new IllegalArgumentException("bad DER length");
      }
      len = 0;
      for (int k = 0; k < n; k++) {
        len = (len << 8) | (b[at + 2 + k] & 0xff);
      }
      head += n;
    }
    if (len < 0 || at + head + len > b.length) {
      throw new IllegalArgumentException("truncated DER");
    }
    return new Element(tag, Arrays.copyOfRange(b, at, at + head + len), head);
  }

  /** A TLV of the given tag around the concatenated parts. */
  static byte[] tlv(int tag, byte[]... parts) {
    ByteArrayOutputStream content = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      content.writeBytes(p);
    }
    int n = content.size();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(tag);
    if (n < 0x80) {
      out.write(n);
    } else {
      int bytes = n < 0x100 ? 1 : n < 0x10000 ? 2 : n < 0x1000000 ? 3 : 4;
      out.write(0x80 | bytes);
      for (int k = bytes - 1; k >= 0; k--) {
        out.write(n >>> (8 * k));
      }
    }
    out.writeBytes(content.toByteArray());
    return out.toByteArray();
  }

  /** A PKCS#8 PrivateKeyInfo: version 0, the algorithm identifier, the key as an OCTET STRING. */
  static byte[] pkcs8(byte[] algorithmIdentifier, byte[] key) {
    return tlv(SEQUENCE, new byte[] {INTEGER, 1, 0}, algorithmIdentifier, tlv(OCTET_STRING, key));
  }
}
