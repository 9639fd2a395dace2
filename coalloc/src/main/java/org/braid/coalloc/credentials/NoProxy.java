package org.braid.coalloc.credentials;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The {@code no_proxy} list as curl reads it: names separated by commas or spaces; {@code *} for
 * every host; a domain name matches itself and its subdomains, with or without a leading dot; an IP
 * address matches itself, an address with a prefix length ({@code 10.0.0.0/8}) the addresses in it.
 * A port after a name is ignored.
 */
final class NoProxy {
  private static final Pattern IP = Pattern.compile("[0-9.]+|\\[?[0-9a-fA-F:]*:[0-9a-fA-F:.]*\\]?");

  private NoProxy() {}

  static boolean matches(String noProxy, String host) {
    if (noProxy == null || host == null) {
      return false;
    }
    String h = strip(host.toLowerCase(Locale.ROOT));
    for (String entry : noProxy.toLowerCase(Locale.ROOT).split("[,\\s]+")) {
      String e = entry.strip();
      if (e.isEmpty()) {
        continue;
      }
      if (e.equals("*")) {
        return true;
      }
      int slash = e.indexOf('/');
      if (slash > 0) {
        if (inCidr(h, strip(e.substring(0, slash)), e.substring(slash + 1))) {
          return true;
        }
        continue;
      }
      e = strip(withoutPort(e));
      if (e.startsWith(".")) {
        e = e.substring(1);
      }
      if (h.equals(e) || (!IP.matcher(h).matches() && h.endsWith("." + e))) {
        return true;
      }
    }
    return false;
  }

  private static String withoutPort(String e) {
    if (e.startsWith("[")) {
      int close = e.indexOf(']');
      return close > 0 ? e.substring(0, close + 1) : e;
    }
    int colon = e.indexOf(':');
    return colon > 0 && e.indexOf(':', colon + 1) < 0 ? e.substring(0, colon) : e;
  }

  private static String strip(String s) {
    return s.startsWith("[") && s.endsWith("]") ? s.substring(1, s.length() - 1) : s;
  }

  private static boolean inCidr(String host, String net, String bits) {
    if (!IP.matcher(host).matches() || !IP.matcher(net).matches()) {
      return false;
    }
    try {
      // literal addresses only: InetAddress.getByName does not resolve them
      byte[] a = InetAddress.getByName(host).getAddress();
      byte[] n = InetAddress.getByName(net).getAddress();
      int prefix = Integer.parseInt(bits);
      if (a.length != n.length || prefix < 0 || prefix > 8 * a.length) {
        return false;
      }
      for (int i = 0; i < prefix; i++) {
        int mask = 0x80 >>> (i % 8);
        if ((a[i / 8] & mask) != (n[i / 8] & mask)) {
          return false;
        }
      }
      return true;
    } catch (UnknownHostException | NumberFormatException e) {
      return false;
    }
  }
}
