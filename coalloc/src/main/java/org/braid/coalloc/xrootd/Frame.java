package org.braid.coalloc.xrootd;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Requests and response headers on the wire. A request is a 24-byte header (stream id, request
 * code, 16 bytes of parameters, data length) and its data; a response is an 8-byte header (stream
 * id, status, data length) and its data.
 */
final class Frame {
  /** The size of a request header. */
  static final int REQUEST_HEADER = 24;

  /** The size of a response header. */
  static final int RESPONSE_HEADER = 8;

  private Frame() {}

  /**
   * One request.
   *
   * @param streamId the stream id (two bytes)
   * @param request the request code
   * @param params exactly 16 bytes of request parameters
   * @param data the request's data, or an empty array
   */
  static byte[] request(int streamId, int request, byte[] params, byte[] data) {
    if (params.length != 16) {
      throw new IllegalArgumentException("request parameters must be 16 bytes: " + params.length);
    }
    ByteBuffer b = ByteBuffer.allocate(REQUEST_HEADER + data.length);
    b.putShort((short) streamId).putShort((short) request).put(params).putInt(data.length);
    return b.put(data).array();
  }

  /** A zero-filled parameter block to fill in. */
  static ByteBuffer params() {
    return ByteBuffer.allocate(16);
  }

  /** A path or query argument as the protocol sends it: its bytes, not terminated. */
  static byte[] text(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** Text in a response: up to the first NUL byte, control characters replaced. */
  static String text(byte[] body, int from) {
    int end = from;
    while (end < body.length && body[end] != 0) {
      end++;
    }
    String s = new String(body, from, end - from, StandardCharsets.UTF_8);
    return s.replaceAll("\\p{Cntrl}", " ").trim();
  }

  /**
   * A response header.
   *
   * @param streamId the stream id it answers
   * @param status the response code ({@link Xrd#OK}, {@link Xrd#ERROR}, ...)
   * @param length the length of the data that follows
   */
  record Header(int streamId, int status, int length) {
    static Header of(byte[] h) {
      ByteBuffer b = ByteBuffer.wrap(h);
      return new Header(b.getShort() & 0xffff, b.getShort() & 0xffff, b.getInt());
    }
  }

  /**
   * A whole response (not a data transfer).
   *
   * @param status the response code
   * @param body its data
   */
  record Response(int status, byte[] body) {
    /** The first 32-bit integer of the body (kXR_error's errnum, kXR_wait's seconds, ...). */
    int int0() {
      return body.length >= 4 ? ByteBuffer.wrap(body).getInt() : -1;
    }

    /** The body's text after its first 32-bit integer (error message, redirect host). */
    String textAfterInt() {
      return body.length > 4 ? text(body, 4) : "";
    }
  }
}
