#!/usr/bin/env bash
# The start of a dataset job (issue 15): `braid get -i LIST -d DIR` of a 1,000-entry list shaped
# like dataset-bench.sh's (the same names, four mirror URLs and a checksum per entry, log-normal
# sizes scaled to about 10 MB in all, so that a run takes a second or two) from four nginx server
# blocks on 127.0.0.1, run N times per launcher (taking turns run by run) with BRAID_TIMING=1;
# prints each run's milestones in ms after `parsed`: listed, request1, byte1, and jobend.
# See docs/download.md, "Start-up of a dataset job".
#
# Usage: src/test/bench/dataset-start.sh [--runs N] [--launcher PATH]... [--opts "JVM OPTS"]...
#   --runs N       runs per launcher (and per --opts; default 8)
#   --launcher P   a braid launcher (default: ./braid of this tree); repeatable
#   --opts "..."   BRAID_JAVA_OPTS for an A/B of a -D switch within one build; repeatable
# Needs nginx and python3. Listens on 127.0.0.1 only; works under a temporary directory it removes.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
runs=8
launchers=()
optsets=()
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=$2; shift 2 ;;
    --launcher) launchers+=("$2"); shift 2 ;;
    --opts) optsets+=("$2"); shift 2 ;;
    *) echo "dataset-start.sh: unknown option $1 (see the header of $0)" >&2; exit 2 ;;
  esac
done
[ "${#launchers[@]}" -gt 0 ] || launchers=("$repo/braid")
[ "${#optsets[@]}" -gt 0 ] || optsets=("")
command -v nginx >/dev/null || { echo "dataset-start.sh: nginx is not installed" >&2; exit 2; }

work="$(mktemp -d /tmp/braid-dstart.XXXXXX)"
chmod 755 "$work" # nginx's workers read it as another user
nginx_pid=""
cleanup() {
  [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
port=$((20000 + RANDOM % 20000))
python3 - "$work" "$port" <<'EOF'
import hashlib, math, os, random, sys
work, port = sys.argv[1], int(sys.argv[2])
r0 = random.Random(15)  # dataset-files.py's sizes for set 1000, scaled to 10 MB
out = [int(min(50e6, max(1000, math.exp(r0.gauss(math.log(330_000), 1.5))))) for _ in range(1000)]
scale = 1e7 / sum(out)
r = random.Random(1515)
with open(os.path.join(work, "input.txt"), "w") as f:
    for i, s in enumerate(out):
        name = "d%02d/s%02d/file%05d.dat" % (i % 16, (i // 16) % 8, i)
        p = os.path.join(work, "www", "set", name)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        data = r.randbytes(int(max(500, s * scale)))
        open(p, "wb").write(data)
        f.write("\t".join("http://127.0.0.1:%d/set/%s" % (port + m, name) for m in range(4)) + "\n")
        f.write("  out=%s\n  checksum=sha-256=%s\n" % (name, hashlib.sha256(data).hexdigest()))
EOF
{
  echo "worker_processes 1; pid $work/nginx.pid; error_log $work/error.log; daemon off;"
  echo "events { worker_connections 1024; }"
  echo "http { access_log off; sendfile on; keepalive_requests 100000;"
  for m in 0 1 2 3; do echo "  server { listen 127.0.0.1:$((port + m)); root $work/www; }"; done
  echo "}"
} >"$work/nginx.conf"
nginx -c "$work/nginx.conf" -p "$work" &
nginx_pid=$!
sleep 0.5
for l in "${launchers[@]}"; do BRAID_NO_BUILD=1 "$l" --version >/dev/null; done # archives
for i in $(seq "$runs"); do
  for l in "${launchers[@]}"; do
    for o in "${optsets[@]}"; do
      rm -rf "$work/out"
      BRAID_JAVA_OPTS="$o" BRAID_TIMING=1 BRAID_NO_BUILD=1 "$l" get -i "$work/input.txt" \
        -d "$work/out" --json --journal "$work/journal.jsonl" --discovery-timeout 0.5 \
        >/dev/null 2>"$work/err.txt" || echo "run failed: $(head -3 "$work/err.txt")" >&2
      grep '^braid: timing:' "$work/err.txt" | tail -1 | tr ' ' '\n' | awk -F= -v l="$l" -v o="$o" \
        -v la="$(cut -d' ' -f1 /proc/loadavg)" '
        NF == 2 { v[$1] = $2 }
        END { printf "%s %s listed=%.1f request1=%.1f byte1=%.1f jobend=%.1f load=%s\n", l, o,
          v["listed"] - v["parsed"], v["request1"] - v["parsed"], v["byte1"] - v["parsed"],
          v["jobend"] - v["parsed"], la }'
    done
  done
done
