package org.braid.coalloc.xrootd;

/**
 * The numbers of the XRootD protocol this client uses (XProtocol.hh, protocol version 5): request
 * and response codes, flags and error numbers. All integers travel in network byte order.
 */
final class Xrd {
  private Xrd() {}

  /** The protocol version this client speaks (5.0.0: TLS-capable). */
  static final int CLIENT_PROTOCOL = 0x00000500;

  // requests
  static final int AUTH = 3000;
  static final int QUERY = 3001;
  static final int CLOSE = 3003;
  static final int PROTOCOL = 3006;
  static final int LOGIN = 3007;
  static final int OPEN = 3010;
  static final int READ = 3013;
  static final int STAT = 3017;

  // responses
  static final int OK = 0;
  static final int OKSOFAR = 4000;
  static final int ATTN = 4001;
  static final int AUTHMORE = 4002;
  static final int ERROR = 4003;
  static final int REDIRECT = 4004;
  static final int WAIT = 4005;
  static final int WAITRESP = 4006;

  /** kXR_attn action: an asynchronous response to an earlier kXR_waitresp. */
  static final int ASYNRESP = 5008;

  // kXR_protocol request flags and response flags
  static final int FLAG_ABLE_TLS = 0x02;
  static final int FLAG_WANT_TLS = 0x04;
  static final int EXPECT_LOGIN = 0x03;
  static final int GOTO_TLS = 0x40000000;

  /** kXR_login capability version: the 2019 TLS-capable client. */
  static final int CAPVER_5 = 5;

  // kXR_open options
  static final int OPEN_READ = 0x0010;
  static final int OPEN_RETSTAT = 0x0400;

  /** kXR_query info type: a file's checksum. */
  static final int QUERY_CHECKSUM = 3;

  // kXR_stat flags
  static final int STAT_DIR = 2;
  static final int STAT_OTHER = 4;
  static final int STAT_OFFLINE = 8;

  // errors (kXR_error's errnum)
  static final int ERR_FIRST = 3000;
  private static final String[] ERRORS = {
    "kXR_ArgInvalid",
    "kXR_ArgMissing",
    "kXR_ArgTooLong",
    "kXR_FileLocked",
    "kXR_FileNotOpen",
    "kXR_FSError",
    "kXR_InvalidRequest",
    "kXR_IOError",
    "kXR_NoMemory",
    "kXR_NoSpace",
    "kXR_NotAuthorized",
    "kXR_NotFound",
    "kXR_ServerError",
    "kXR_Unsupported",
    "kXR_noserver",
    "kXR_NotFile",
    "kXR_isDirectory",
    "kXR_Cancelled",
    "kXR_ItExists",
    "kXR_ChkSumErr",
    "kXR_inProgress",
    "kXR_overQuota",
    "kXR_SigVerErr",
    "kXR_DecryptErr",
    "kXR_Overloaded",
    "kXR_fsReadOnly",
    "kXR_BadPayload",
    "kXR_AttrNotFound",
    "kXR_TLSRequired",
    "kXR_noReplicas",
    "kXR_AuthFailed",
    "kXR_Impossible",
    "kXR_Conflict",
    "kXR_TooManyErrs",
    "kXR_ReqTimedOut",
    "kXR_TimerExpired"
  };

  static final int ERR_NOT_AUTHORIZED = 3010;
  static final int ERR_NOT_FOUND = 3011;
  static final int ERR_SERVER = 3012;
  static final int ERR_UNSUPPORTED = 3013;
  static final int ERR_NOT_FILE = 3015;
  static final int ERR_IS_DIRECTORY = 3016;
  static final int ERR_CHECKSUM = 3019;
  static final int ERR_TLS_REQUIRED = 3028;
  static final int ERR_AUTH_FAILED = 3030;

  /** The name of an error number, e.g. "kXR_NotFound", or "error 1234". */
  static String errorName(int errnum) {
    int i = errnum - ERR_FIRST;
    return i >= 0 && i < ERRORS.length ? ERRORS[i] : "error " + errnum;
  }

  /**
   * Whether asking the same server again later may succeed: not for errors about the request or the
   * file itself (missing, a directory, forbidden, unsupported).
   */
  static boolean retryable(int errnum) {
    switch (errnum) {
      case 3000: // ArgInvalid
      case 3001: // ArgMissing
      case 3002: // ArgTooLong
      case 3006: // InvalidRequest
      case ERR_NOT_AUTHORIZED:
      case ERR_NOT_FOUND:
      case ERR_UNSUPPORTED:
      case ERR_NOT_FILE:
      case ERR_IS_DIRECTORY:
      case ERR_TLS_REQUIRED:
      case ERR_AUTH_FAILED:
        return false;
      default:
        return true;
    }
  }

  /** The name of a request code for messages, e.g. "kXR_open". */
  static String requestName(int request) {
    switch (request) {
      case AUTH:
        return "kXR_auth";
      case QUERY:
        return "kXR_query";
      case CLOSE:
        return "kXR_close";
      case PROTOCOL:
        return "kXR_protocol";
      case LOGIN:
        return "kXR_login";
      case OPEN:
        return "kXR_open";
      case READ:
        return "kXR_read";
      case STAT:
        return "kXR_stat";
      default:
        return "request " + request;
    }
  }
}
