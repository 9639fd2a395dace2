#!/usr/bin/env bash
# Start-up milestones of `braid get`: runs it N times against a local nginx on 127.0.0.1 (four
# server blocks, the "mirrors") and prints the median of each milestone, in milliseconds since the
# launcher was executed. See docs/download.md, "Start-up time".
#
# Usage: src/test/bench/startup.sh [--runs N] [--size MB] [--mirrors N] [--dataset K]
#                                  [--launcher PATH]... [--keep DIR] [-- EXTRA braid get OPTIONS]
#   --runs N        measured runs (default 10), after one unmeasured warm-up run (it records the
#                   class-data archive when the jar is new)
#   --size MB       the file's size (default 10)
#   --mirrors N     server blocks, each one replica (default 4)
#   --dataset K     a dataset of K files of --size MB each instead, fetched with
#                   `braid get -d DIR -r URL/...` from the autoindex of every mirror
#   --launcher P    the braid launcher (default: ./braid of this source tree); given more than
#                   once, the launchers take turns run by run and get one column each
#   --keep DIR      keep the work directory there (nginx.conf, access.log, each run's stderr)
#
# The milestones come from the run itself (BRAID_TIMING=1, see StartupClock) and from nginx:
#   jvm        the JVM started (millisecond resolution)
#   main       BraidCli.main entered
#   built      the command line (picocli) built
#   parsed     the arguments parsed, the command entered
#   setup      the download configured, about to start (one file only)
#   request    the first request reached nginx ($msec - $request_time, millisecond resolution)
#   transfer   the replicas answered and the transfer started (one file only)
#   lastbyte   the last byte arrived (one file only)
#   reported   the report printed (one file only)
#   exit       System.exit called
#   end        the process ended, as this script saw it
#   cpu        user + system CPU seconds of the process (from bash's time)
# Needs nginx and bash 5 (EPOCHREALTIME). Listens on 127.0.0.1 only; writes under a temporary
# directory it removes.
set -euo pipefail
LC_ALL=C
export LC_ALL
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
runs=10 size=10 mirrors=4 dataset=0 keep=""
launchers=()
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    --mirrors) mirrors=$2; shift 2 ;;
    --dataset) dataset=$2; shift 2 ;;
    --launcher) launchers+=("$2"); shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "startup.sh: unknown option $1 (see the header of $0)" >&2; exit 2 ;;
  esac
done
extra=("$@")
[ "${#launchers[@]}" -gt 0 ] || launchers=("$repo/braid")
for t in nginx; do
  command -v "$t" >/dev/null || { echo "startup.sh: $t is not installed" >&2; exit 2; }
done
[ -n "${EPOCHREALTIME:-}" ] || { echo "startup.sh: needs bash 5 (EPOCHREALTIME)" >&2; exit 2; }

work="$(mktemp -d /tmp/braid-startup.XXXXXX)"
export work
nginx_pid=""
cleanup() {
  if [ -n "$nginx_pid" ]; then kill "$nginx_pid" 2>/dev/null || true; wait "$nginx_pid" 2>/dev/null || true; fi
  if [ -n "$keep" ]; then mkdir -p "$keep" && cp -r "$work"/. "$keep"/; fi
  rm -rf "$work"
}
trap cleanup EXIT

mkdir -p "$work/www/ds" "$work/tmp"
head -c "$((size * 1048576))" /dev/urandom >"$work/www/f"
sum="$(sha256sum "$work/www/f" | cut -d' ' -f1)"
for ((k = 0; k < dataset; k++)); do
  head -c "$((size * 1048576))" /dev/urandom >"$work/www/ds/f$k"
done

# free ports: from a base chosen by the process id, checked with bash's /dev/tcp
port0=$((20000 + ($$ % 20000)))
ports=()
p=$port0
while [ "${#ports[@]}" -lt "$mirrors" ]; do
  if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then ports+=("$p"); fi
  p=$((p + 1))
done
{
  [ "$(id -u)" = 0 ] && echo "user root;"
  echo "worker_processes 1; daemon off; pid $work/nginx.pid; error_log $work/error.log warn;"
  echo "events { worker_connections 256; }"
  echo "http {"
  echo "  log_format timing '\$msec \$request_time \$server_port \$status \"\$request\"';"
  echo "  access_log $work/access.log timing; sendfile on; autoindex on; autoindex_format json;"
  for t in client_body proxy fastcgi uwsgi scgi; do echo "  ${t}_temp_path $work/tmp/$t;"; done
  for p in "${ports[@]}"; do echo "  server { listen 127.0.0.1:$p; root $work/www; }"; done
  echo "}"
} >"$work/nginx.conf"
nginx -p "$work" -c "$work/nginx.conf" &
nginx_pid=$!
for p in "${ports[@]}"; do
  for _ in $(seq 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null && break
    sleep 0.05
  done
done

args=(get --no-journal --json)
if [ "$dataset" -gt 0 ]; then
  args+=(-d "$work/out" -r)
  for p in "${ports[@]}"; do args+=("http://127.0.0.1:$p/ds/"); done
else
  args+=(-o "$work/out" --checksum "sha256:$sum")
  for p in "${ports[@]}"; do args+=("http://127.0.0.1:$p/f"); done
fi
args+=(${extra[@]+"${extra[@]}"})

# one run of launcher $2: prints "name=ms ..." on one line
one() {
  local i=$1 launcher=$2 t0 t1 lines before
  rm -rf "$work/out" "$work/out.part" "$work/out.braid-ctl"
  before=$(wc -l <"$work/access.log" 2>/dev/null || echo 0)
  TIMEFORMAT='%U %S'
  t0=$EPOCHREALTIME
  { time BRAID_TIMING=1 BRAID_TIMING_T0=$t0 "$launcher" "${args[@]}" \
      >"$work/run$i.out" 2>"$work/run$i.err" ; } 2>"$work/run$i.time" || {
    echo "startup.sh: run $i failed:" >&2; cat "$work/run$i.err" >&2; exit 1; }
  t1=$EPOCHREALTIME
  sleep 0.2 # nginx writes the log line when the response is done
  lines=$(tail -n +"$((before + 1))" "$work/access.log")
  awk -v t0="${t0/,/.}" -v t1="${t1/,/.}" -v lines="$lines" -v cpu="$(cat "$work/run$i.time")" '
    /^braid: timing:/ {
      for (f = 3; f <= NF; f++) if ($f !~ /^origin=/) out = out " " $f
    }
    END {
      n = split(lines, l, "\n"); first = -1
      for (k = 1; k <= n; k++) {
        split(l[k], w, " "); if (w[1] == "") continue
        s = w[1] - w[2]
        if (first < 0 || s < first) first = s
      }
      split(cpu, c, " ")
      printf "%s request=%.1f end=%.1f cpu=%.0f\n", out, (first - t0) * 1000, (t1 - t0) * 1000, (c[1] + c[2]) * 1000
    }' "$work/run$i.err"
}

for l in "${launchers[@]}"; do one 0 "$l" >/dev/null; done # warm-up: class-data archive, page cache
for ((i = 1; i <= runs; i++)); do
  for k in "${!launchers[@]}"; do one "$i" "${launchers[$k]}" >>"$work/milestones.$k"; done
done

what="$size MB"
[ "$dataset" -gt 0 ] && what="$dataset files of $size MB"
echo "braid get, $what from $mirrors nginx mirrors on 127.0.0.1, $runs runs each; median ms since"
echo "the launcher's exec, and CPU ms (cpu); launchers:"
for k in "${!launchers[@]}"; do echo "  $((k + 1)): ${launchers[$k]}"; done
# a table: one row per milestone, one column (median, then min-max) per launcher
for k in "${!launchers[@]}"; do
  awk '
    { for (f = 1; f <= NF; f++) { split($f, kv, "="); if (!(kv[1] in seen)) { seen[kv[1]] = 1; order[++n] = kv[1] } v[kv[1], ++c[kv[1]]] = kv[2] } }
    END {
      for (j = 1; j <= n; j++) {
        k = order[j]; m = c[k]
        for (a = 1; a <= m; a++) x[a] = v[k, a] + 0
        for (a = 1; a <= m; a++) for (b = a + 1; b <= m; b++) if (x[b] < x[a]) { t = x[a]; x[a] = x[b]; x[b] = t }
        med = (m % 2) ? x[(m + 1) / 2] : (x[m / 2] + x[m / 2 + 1]) / 2
        printf "%s %.1f %.0f-%.0f\n", k, med, x[1], x[m]
      }
    }' "$work/milestones.$k" >"$work/medians.$k"
done
awk -v n="${#launchers[@]}" '
  { name = $1; if (!(name in seen)) { seen[name] = 1; order[++rows] = name } cell[name, FILENAME] = sprintf("%8s %-11s", $2, "(" $3 ")") ; files[FILENAME] = 1 }
  END {
    printf "  %-9s", ""; for (k = 0; k < n; k++) printf " %8s %-11s", (k + 1), ""; print ""
    for (r = 1; r <= rows; r++) {
      printf "  %-9s", order[r]
      for (k = 0; k < n; k++) { f = ENVIRON["work"] "/medians." k; printf " %s", ((order[r], f) in cell) ? cell[order[r], f] : sprintf("%8s %-11s", "-", "") }
      print ""
    }
  }' $(for k in "${!launchers[@]}"; do echo "$work/medians.$k"; done)
