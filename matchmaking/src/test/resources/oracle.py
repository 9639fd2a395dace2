#!/usr/bin/env python3
"""HTCondor ClassAd oracle for Braid's differential tests.

Reads cases on stdin, one per line, and writes one canonical value per line:
  E<TAB>expression   evaluate a stand-alone expression
  A<TAB>ad           parse the ad and evaluate its attribute r
  M<TAB>left<TAB>right  symmetricMatch, left.matches(right), right.matches(left)
  T<TAB>n            time n evaluations of the previous A case (prints evaluations/s)
Run with _CONDOR_STRICT_CLASSAD_EVALUATION=true; it never imports htcondor2.

Canonical values: undefined, error, true, false, int:N, real:HEXBITS, real:nan,
rel:HEXBITS, abs:SECONDS, str:JSON, list(N):[...], ad:[names]{...}, PARSEFAIL.
Lists and ads are expanded by evaluating e[i] and e.name in the original scope.
"""
import datetime
import json
import struct
import sys
import time

import classad2 as classad

MAX_EXPAND = 3


def real_bits(f):
    if f != f:
        return "nan"
    return "%016x" % struct.unpack(">Q", struct.pack(">d", f))[0]


def quote_name(n):
    return "'" + n.replace("\\", "\\\\").replace("'", "\\'") + "'"


def canon(ev, path, depth):
    try:
        v = ev(path)
    except Exception:
        return "error"
    if isinstance(v, classad.Value):
        return "error" if v == classad.Value.Error else "undefined"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return "int:%d" % v
    if isinstance(v, float):
        try:
            rel = ev("isReltime(" + path + ")")
        except Exception:
            rel = False
        return ("rel:" if rel is True else "real:") + real_bits(v)
    if isinstance(v, str):
        return "str:" + json.dumps(v)
    if isinstance(v, datetime.datetime):
        return "abs:%d" % int(v.timestamp())
    if isinstance(v, list):
        if depth >= MAX_EXPAND:
            return "list(%d)" % len(v)
        items = [canon(ev, "%s[%d]" % (path, i), depth + 1) for i in range(len(v))]
        return "list(%d):[%s]" % (len(v), ",".join(items))
    if isinstance(v, classad.ClassAd):
        names = sorted(k.lower() for k in v.keys())
        if depth >= MAX_EXPAND:
            return "ad:[%s]" % ",".join(names)
        vals = [canon(ev, "%s.%s" % (path, quote_name(n)), depth + 1) for n in names]
        return "ad:[%s]{%s}" % (",".join(names), ",".join(vals))
    return "unknown:" + type(v).__name__


def case(kind, payload):
    if kind == "M":
        left, _, right = payload.partition("\t")
        try:
            l, r = classad.ClassAd(left), classad.ClassAd(right)
        except Exception:
            return "PARSEFAIL"
        out = []
        for f in (lambda: l.symmetricMatch(r), lambda: l.matches(r), lambda: r.matches(l)):
            try:
                out.append("true" if f() else "false")
            except Exception:
                out.append("error")
        return ",".join(out)
    if kind == "E":
        try:
            classad.ExprTree(payload)
        except Exception:
            return "PARSEFAIL"
        return canon(lambda s: classad.ExprTree(s).eval(), "(" + payload + ")", 0)
    try:
        ad = classad.ClassAd(payload)
    except Exception:
        return "PARSEFAIL"

    def ev(s):
        if s == "r":
            return ad.eval("r")
        ad["zz__"] = classad.ExprTree(s)
        try:
            return ad.eval("zz__")
        finally:
            del ad["zz__"]

    return canon(ev, "r", 0)


def main():
    last_ad = None
    for line in sys.stdin:
        line = line.rstrip("\n")
        if not line:
            continue
        kind, _, payload = line.partition("\t")
        if kind == "T":
            n = int(payload)
            ad = classad.ClassAd(last_ad)
            t0 = time.perf_counter()
            for _ in range(n):
                ad.eval("r")
            dt = time.perf_counter() - t0
            print("rate:%.1f" % (n / dt), flush=True)
            continue
        if kind == "A":
            last_ad = payload
        print(case(kind, payload), flush=False)
        sys.stdout.flush()


if __name__ == "__main__":
    main()
