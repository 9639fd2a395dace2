package org.braid.infoprovider.logs;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The hashes a tailer remembers files and lines by (SHA-256, first 16 bytes in hex): a file's
 * fingerprint is the hash of its first line (so a renamed or compressed file is recognised), a
 * line's key the hash of the log's name, the file's fingerprint, the line's start offset in the
 * file and the line: a line read twice (after a crash, a rotation seen late; renaming and
 * compressing keep fingerprint and offsets) is stored once, but two transfers that logged
 * byte-identical lines are two lines at two offsets, stored as the two transfers they are.
 *
 * <p>Not thread-safe: one per tailer.
 */
final class LineHashes {

  private static final int FINGERPRINT_BYTES = 4096;

  private final String source;
  private final MessageDigest sha;

  LineHashes(String source) {
    this.source = source;
    try {
      this.sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JVM", e);
    }
  }

  /** Hash of the first line (or first 4 KiB); null while the first line is incomplete. */
  String fingerprint(InputStream in) throws IOException {
    byte[] head = in.readNBytes(FINGERPRINT_BYTES);
    int n = -1;
    for (int i = 0; i < head.length; i++) {
      if (head[i] == '\n') {
        n = i + 1;
        break;
      }
    }
    if (n < 0) {
      if (head.length < FINGERPRINT_BYTES) {
        return null; // the first line is still being written
      }
      n = head.length;
    }
    sha.reset();
    sha.update(head, 0, n);
    return HexFormat.of().formatHex(sha.digest(), 0, 16);
  }

  /**
   * The key of the line of this log that starts at {@code offset} of the file {@code fingerprint}.
   */
  String key(String fingerprint, long offset, String line) {
    sha.reset();
    sha.update(source.getBytes(StandardCharsets.UTF_8));
    sha.update((byte) '\n');
    sha.update(fingerprint.getBytes(StandardCharsets.UTF_8));
    sha.update((byte) '@');
    sha.update(Long.toString(offset).getBytes(StandardCharsets.UTF_8));
    sha.update((byte) '\n');
    sha.update(line.getBytes(StandardCharsets.UTF_8));
    return HexFormat.of().formatHex(sha.digest(), 0, 16);
  }
}
