#!/usr/bin/env python3
"""A small HTTP(S) file server for Braid's system tests of grid access, standard library only.

It serves the files under --root with single byte ranges, and optionally:
  --cert/--key         serve HTTPS with this certificate;
  --capath DIR         ask for a client certificate verified against the CA directory DIR
                       (OpenSSL hashed names, as `openssl rehash` makes them);
  --require-client     refuse a connection without a client certificate;
  --allow-proxy-certs  accept RFC 3820 proxy certificates (X509_V_FLAG_ALLOW_PROXY_CERTS,
                       which OpenSSL 3 no longer takes from OPENSSL_ALLOW_PROXY_CERTS);
  --token TOKEN        answer 401 unless the request carries `Authorization: Bearer TOKEN`;
  --digests            publish the file's checksums when asked: RFC 3230 Digest for
                       Want-Digest (adler32 in hexadecimal as Rucio/FTS use it, sha-256 and md5
                       in base64) and RFC 9530 Repr-Digest for Want-Repr-Digest (adler, sha-256,
                       md5 as byte sequences);
  --redirect URL       answer /redirect/NAME with 302 to URL/NAME.
Each request is logged as a JSON line to --log: method, path, range, whether it carried an
Authorization header, the client certificate's subject (or null), and the Via header.
"""
import argparse
import base64
import hashlib
import json
import os
import re
import ssl
import threading
import zlib
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ARGS = None
LOG_LOCK = threading.Lock()
DIGESTS = {}


def digests(path):
    st = os.stat(path)
    key = (path, st.st_mtime_ns, st.st_size)
    if key not in DIGESTS:
        sha, md5, adler = hashlib.sha256(), hashlib.md5(), 1
        with open(path, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                sha.update(chunk)
                md5.update(chunk)
                adler = zlib.adler32(chunk, adler)
        DIGESTS[key] = {
            "sha-256": sha.digest(),
            "md5": md5.digest(),
            "adler32": adler.to_bytes(4, "big"),
        }
    return DIGESTS[key]


def wanted(header):
    """Algorithm names in a Want-Digest or Want-Repr-Digest value, lower case."""
    return [m.split(";")[0].split("=")[0].strip().lower() for m in header.split(",") if m.strip()]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):  # the JSON log below replaces the default one
        pass

    def record(self, status):
        subject = None
        if isinstance(self.connection, ssl.SSLSocket):
            cert = self.connection.getpeercert()
            if cert:
                subject = "/".join(
                    "%s=%s" % kv for rdn in cert.get("subject", ()) for kv in rdn)
        line = {
            "method": self.command,
            "path": self.path,
            "range": self.headers.get("Range"),
            "authorization": self.headers.get("Authorization") is not None,
            "client": subject,
            "via": self.headers.get("Via"),
            "status": status,
        }
        with LOG_LOCK, open(ARGS.log, "a") as f:
            f.write(json.dumps(line) + "\n")

    def send_empty(self, status, headers=()):
        self.record(status)
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_HEAD(self):
        self.serve(head=True)

    def do_GET(self):
        self.serve(head=False)

    def serve(self, head):
        path = self.path.split("?", 1)[0]
        if ARGS.redirect and path.startswith("/redirect/"):
            self.send_empty(302, [("Location", ARGS.redirect + "/" + path[len("/redirect/"):])])
            return
        if ARGS.token and self.headers.get("Authorization") != "Bearer " + ARGS.token:
            self.send_empty(401, [("WWW-Authenticate", "Bearer")])
            return
        file = os.path.realpath(os.path.join(ARGS.root, path.lstrip("/")))
        if not file.startswith(os.path.realpath(ARGS.root) + os.sep) or not os.path.isfile(file):
            self.send_empty(404)
            return
        size = os.path.getsize(file)
        st = os.stat(file)
        headers = [
            ("Accept-Ranges", "bytes"),
            ("ETag", '"%x-%x"' % (st.st_mtime_ns, size)),
            ("Last-Modified", formatdate(st.st_mtime, usegmt=True)),
        ]
        if ARGS.digests:
            headers += self.digest_headers(file)
        first, last, status = 0, size - 1, 200
        m = re.fullmatch(r"bytes=(\d*)-(\d*)", (self.headers.get("Range") or "").strip())
        if m and (m.group(1) or m.group(2)):
            if m.group(1):
                first = int(m.group(1))
                last = min(size - 1, int(m.group(2))) if m.group(2) else size - 1
            else:
                first = max(0, size - int(m.group(2)))
            if first >= size:
                self.send_empty(416, [("Content-Range", "bytes */%d" % size)])
                return
            status = 206
            headers.append(("Content-Range", "bytes %d-%d/%d" % (first, last, size)))
        length = last - first + 1
        self.record(status)
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(length))
        self.end_headers()
        if head:
            return
        with open(file, "rb") as f:
            f.seek(first)
            left = length
            try:
                while left > 0:
                    chunk = f.read(min(left, 1 << 16))
                    if not chunk:
                        break
                    self.wfile.write(chunk)
                    left -= len(chunk)
            except (BrokenPipeError, ConnectionResetError, ssl.SSLError):
                self.close_connection = True

    def digest_headers(self, file):
        d = digests(file)
        out = []
        want = self.headers.get("Want-Digest")
        if want:
            parts = []
            for a in wanted(want):
                if a == "adler32":
                    parts.append("adler32=" + d["adler32"].hex())
                elif a in ("sha-256", "md5"):
                    parts.append(a + "=" + base64.b64encode(d[a]).decode())
            if parts:
                out.append(("Digest", ", ".join(parts)))
        want = self.headers.get("Want-Repr-Digest")
        if want:
            names = {"adler": "adler32", "sha-256": "sha-256", "md5": "md5"}
            parts = [
                "%s=:%s:" % (a, base64.b64encode(d[names[a]]).decode())
                for a in wanted(want)
                if a in names
            ]
            if parts:
                out.append(("Repr-Digest", ", ".join(parts)))
        return out


def main():
    global ARGS
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--bind", default="127.0.0.1")
    p.add_argument("--root", required=True)
    p.add_argument("--log", required=True)
    p.add_argument("--cert")
    p.add_argument("--key")
    p.add_argument("--capath")
    p.add_argument("--require-client", action="store_true")
    p.add_argument("--allow-proxy-certs", action="store_true")
    p.add_argument("--token")
    p.add_argument("--digests", action="store_true")
    p.add_argument("--redirect")
    ARGS = p.parse_args()
    httpd = ThreadingHTTPServer((ARGS.bind, ARGS.port), Handler)
    httpd.daemon_threads = True
    if ARGS.cert:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(ARGS.cert, ARGS.key)
        if ARGS.capath:
            ctx.load_verify_locations(capath=ARGS.capath)
            ctx.verify_mode = ssl.CERT_REQUIRED if ARGS.require_client else ssl.CERT_OPTIONAL
            if ARGS.allow_proxy_certs:
                ctx.verify_flags |= ssl.VERIFY_ALLOW_PROXY_CERTS
        httpd.socket = ctx.wrap_socket(httpd.socket, server_side=True)
    print("serving %s on %s:%d" % (ARGS.root, ARGS.bind, ARGS.port), flush=True)
    httpd.serve_forever()


if __name__ == "__main__":
    main()
