#!/usr/bin/env bash
# Dataset benchmark (issue 15): many files from four shaped mirrors (80/40/20/10 Mbit/s) on the
# namespace testbed (testbed.sh), Braid (braid get -i LIST -d DIR) side by side with aria2c
# (-i LIST -j N, default and tuned) and globus-url-copy (-cc N -f LIST), contenders alternating,
# several repetitions, one CSV row per job. Root only; everything is named $TB_PREFIX* and removed
# on exit. Not part of run-all.sh: run it on a quiet machine.
#
# Usage: src/test/bench/dataset-bench.sh [--smoke] [--reps N] [--sets "1000 10k"] [--out DIR]
#   --sets   1000: 1,000 files, log-normal sizes (1 KB to 50 MB), about 1 GB in all;
#            10k: 10,000 files of 10 KB (files per second)
#   --smoke  a 40-file set, one repetition, results in the work directory (checks the script)
#   --out    where dataset-results.csv, dataset-braid.jsonl and dataset-machine.txt go (default
#            docs/benchmarks); rows are appended, so several runs can share one directory
# At the end, dataset-report.py prints the summary (medians per set and contender, the issue's
# goals checked); with the default --out it also rewrites the generated part of the dataset
# section of docs/benchmarks.md. Take the benchmark lock when other benchmarks may run:
#   flock /work/helpers/bench.lock src/test/bench/dataset-bench.sh --sets "1000 10k" --reps 3
# Environment: BENCH_CONTENDERS replaces the contender list: braid braid-j64 aria2 aria2-tuned
# guc guc-tuned (default: all), and braid-base: braid from the checkout BENCH_BASE (its jar built
# beforehand; a journal of its own), to compare two versions in the same run; TB_PREFIX and
# TB_NET as for testbed.sh; BRAID_TIMING=1 appends
# each braid run's milestones (ms since its launcher started) to dataset-timing.txt in --out;
# BENCH_LINKS=1 samples every mirror link's byte counter during each run (dataset-links.py) and
# appends when each link carried its first and last byte, its idle time and bytes to
# dataset-links.txt in --out; BENCH_LOGS=1 keeps each braid run's stderr and report as
# logs/SET-CONTENDER-REP.{log,json} in --out; BENCH_BRAID_OPTS adds options to every braid run
# (BRAID_LOG=info in the environment, which reaches braid, logs the tail split; -v does not apply
# to a dataset); BENCH_T0=1 makes braid's milestones count from the
# moment this script takes as the run's start, as its wall clock and the link counters do, rather
# than from the launcher's start a few ms later (BRAID_TIMING_T0, docs/download.md); BENCH_PROBE=1
# (for finding out why a run stalls) keeps, in --out/logs, each run's connection set-ups and
# tear-downs (SET-CONTENDER-REP.pcap, tcpdump), the states of the contender's and the servers'
# threads every 20 ms (.threads), the delays of a file created, renamed and removed in the work
# directory every 20 ms (.disk: those of 20 ms or more) and the contender's CPU time (.time), and
# appends the sockets, TCP counters and memory before and after each run to dataset-probe.txt.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
# shellcheck source=testbed.sh
. "$here/testbed.sh"

work=/tmp/${TB_PREFIX}dwork
invocation="$0 $*"
reps=3
sets="1000 10k"
out="$repo/docs/benchmarks"
smoke=0
RATES="80 40 20 10"
while [ $# -gt 0 ]; do
  case "$1" in
    --smoke) smoke=1; reps=1; sets=smoke; out=$work/smoke; shift ;;
    --reps) reps=$2; shift 2 ;;
    --sets) sets=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "dataset-bench: unknown option: $1" >&2; exit 2 ;;
  esac
done
[[ "$reps" =~ ^[1-9][0-9]*$ ]] || { echo "dataset-bench: --reps: expected a positive number" >&2; exit 2; }
for s in $sets; do
  case "$s" in smoke|1000|10k) ;; *) echo "dataset-bench: unknown set: $s" >&2; exit 2 ;; esac
done
tb_need_root
for tool in jq java python3 aria2c globus-url-copy globus-gridftp-server /usr/sbin/nginx; do
  command -v "$tool" >/dev/null || { echo "dataset-bench: $tool is not installed (src/test/bench/install)" >&2; exit 1; }
done

cleanup() { tb_cleanup >/dev/null 2>&1 || true; }
trap cleanup EXIT
trap 'exit 130' INT TERM
tb_cleanup
mkdir -p "$work" "$out"
if [[ " ${BENCH_CONTENDERS:-} " == *" braid-base "* ]] && [ ! -f "${BENCH_BASE:-}/cli/target/braid.jar" ]; then
  echo "dataset-bench: braid-base needs BENCH_BASE, a checkout with its jar built" >&2
  exit 2
fi
if [ "$smoke" = 0 ] || [ ! -f "$repo/cli/target/braid.jar" ]; then
  (cd "$repo" && ./mvnw -B -q -DskipTests -pl cli -am package) >&2
fi
# the jar was just built: no look at the sources on every run (an edit during a long run rebuilt
# it inside a timed braid run)
export BRAID_NO_BUILD=1
"$repo/braid" --version >&2
if [[ " ${BENCH_CONTENDERS:-} " == *" braid-base "* ]]; then
  "$BENCH_BASE/braid" --version >&2 # its class-data archive made before the first timed run
fi
{
  echo "dataset-bench $(date -u +%Y-%m-%dT%H:%M:%SZ): $invocation (TB_PREFIX=$TB_PREFIX)"
  echo "commit $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown); $(nproc) CPUs; load average at start $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "$(java -version 2>&1 | head -1); $(aria2c --version | head -1); $(globus-url-copy -version 2>&1 | head -1)"
} >>"$out/dataset-machine.txt"

csv="$out/dataset-results.csv"
jsonl="$out/dataset-braid.jsonl"
[ -f "$csv" ] || echo "set,contender,rep,position,files,bytes,rc,ok,wall_s,bound_s,of_bound,files_per_s,load1,note" >"$csv"

# TCP payload per byte tbf counts (as bench.sh): the bound is the sum of the link rates times this.
bound_s() { # bytes
  awk -v b="$1" -v rates="$RATES" 'BEGIN { n = split(rates, r, " "); s = 0
    for (i = 1; i <= n; i++) s += r[i]; printf "%.3f", b / (s * 1e6 / 8 * 1448 / 1514) }'
}

# The set's files under $work/www/SET (made once, deterministic) and its lists: aria2 -i format
# with every mirror's URL and checksum=sha-256= (read by braid and aria2c alike), and two
# globus-url-copy -f lists (every file from the fastest mirror; files spread over the mirrors in
# proportion to their rates, a static plan that knows the rates).
make_set() { # set
  local set=$1 d="$work/www/$1"
  python3 "$here/dataset-files.py" "$set" "$d" "$work/lists/$set" "$RATES" "$TB_NET" >&2
}

# Waits (at most 5 s) until the disk under the work directory has been idle for half a second:
# `sync` returns before the discards of the removed files (a file system mounted with `discard`)
# and other writeback have all reached the disk, and a single-threaded client whose file creation
# waits on the file system's journal stalls every transfer at once.
settle_disk() {
  local dev stat a b k
  dev=$(findmnt -no SOURCE -T "$work" 2>/dev/null | sed 's|^/dev/||; s|\[.*||')
  stat=/sys/class/block/$dev/stat
  [ -r "$stat" ] || return 0
  a=$(awk '{ print $10 }' "$stat")
  for k in $(seq 10); do
    sleep 0.5
    b=$(awk '{ print $10 }' "$stat")  # milliseconds the device has been busy
    [ "$a" = "$b" ] && return 0
    a=$b
  done
  echo "dataset-bench: the disk ($dev) was still busy after 5 s; running anyway" >&2
}

run_one() { # set contender rep position
  local set=$1 c=$2 rep=$3 pos=$4 o="$work/out" rc=0 note="" t0 t1
  local lists="$work/lists/$set"
  rm -rf "$o"; mkdir -p "$o"
  # the previous run wrote about 1 GB: its writeback (and the removal above) reach the disk now,
  # not during this run (in session 12 braid's launcher still took 70-263 ms to reach the JVM with it)
  sync
  settle_disk
  local load1; load1=$(cut -d' ' -f1 /proc/loadavg)
  local log="$work/run.log" sampler=""
  if [ "${BENCH_LINKS:-0}" = 1 ]; then
    local -a devs=()
    for i in $(seq "$(wc -w <<<"$RATES")"); do devs+=("${TB_PREFIX}m${i}c"); done
    ip netns exec "$TB_CLIENT" python3 "$here/dataset-links.py" sample "${devs[@]}" >"$work/links.txt" &
    sampler=$!
    sleep 0.1
  fi
  local probe="" timed=()
  if [ "${BENCH_PROBE:-0}" = 1 ]; then
    timed=(/usr/bin/time -o "$out/logs/$set-$c-$rep.time" -f "%e s, user %U s, sys %S s, max RSS %M kB")
    probe_state "$set $c rep $rep: before"
    mkdir -p "$out/logs"
    # connection set-ups and tear-downs on every link, and what the contender's threads wait in
    ip netns exec "$TB_CLIENT" tcpdump -i any -n -w "$out/logs/$set-$c-$rep.pcap" -s 128 \
      'tcp[tcpflags] & (tcp-syn|tcp-fin|tcp-rst) != 0' 2>/dev/null &
    probe=$!
    sleep 0.2
  fi
  t0=$(date +%s.%N)
  if [ -n "$probe" ]; then
    python3 "$here/dataset-links.py" threads "$c" >"$out/logs/$set-$c-$rep.threads" &
    probe="$probe $!"
    python3 "$here/dataset-links.py" disk "$work" >"$out/logs/$set-$c-$rep.disk" &
    probe="$probe $!"
  fi
  case "$c" in
    braid|braid-j64|braid-base)
      local -a opts=(--json --journal "$work/journal.jsonl" --discovery-timeout 0.5)
      local bin="$repo/braid"
      [ "$c" = braid-j64 ] && opts+=(-j 64)
      if [ "$c" = braid-base ]; then
        bin="$BENCH_BASE/braid"
        opts=(--json --journal "$work/journal-base.jsonl" --discovery-timeout 0.5)
      fi
      local -a extra=()
      [ -n "${BENCH_BRAID_OPTS:-}" ] && read -r -a extra <<<"$BENCH_BRAID_OPTS"
      (
        if [ "${BENCH_T0:-0}" = 1 ]; then export BRAID_TIMING_T0=$t0; fi
        exec ${timed[@]+"${timed[@]}"} timeout 1800 ip netns exec "$TB_CLIENT" "$bin" get -i "$lists/input.txt" \
          -d "$o" "${opts[@]}" ${extra[@]+"${extra[@]}"}
      ) >"$work/braid.json" 2>"$log" || rc=$? ;;
    aria2|aria2-tuned)
      local -a opts=()
      [ "$c" = aria2-tuned ] && opts=(-j 32 -x 4 -s 4 -k 1M --uri-selector=adaptive)
      ${timed[@]+"${timed[@]}"} timeout 1800 ip netns exec "$TB_CLIENT" aria2c -q --allow-overwrite=true \
        --auto-file-renaming=false --check-integrity=false ${opts[@]+"${opts[@]}"} \
        -i "$lists/input.txt" -d "$o" >"$log" 2>&1 || rc=$? ;;
    guc|guc-tuned)
      local -a opts=(-cd -cc 4 -f "$lists/guc-best.txt")
      [ "$c" = guc-tuned ] && opts=(-cd -cc 32 -pp -f "$lists/guc-spread.txt")
      sed "s|@OUT@|$o|" "${opts[-1]}" >"$work/guc.txt"
      opts[-1]="$work/guc.txt"
      ${timed[@]+"${timed[@]}"} timeout 1800 ip netns exec "$TB_CLIENT" globus-url-copy "${opts[@]}" >"$log" 2>&1 || rc=$? ;;
    *) echo "dataset-bench: unknown contender $c" >&2; exit 2 ;;
  esac
  t1=$(date +%s.%N)
  if [ -n "$probe" ]; then
    # shellcheck disable=SC2086
    kill $probe 2>/dev/null || true
    # shellcheck disable=SC2086
    wait $probe 2>/dev/null || true
    probe_state "$set $c rep $rep: after"
  fi
  if [ -n "$sampler" ]; then
    sleep 0.1
    kill "$sampler" 2>/dev/null || true
    wait "$sampler" 2>/dev/null || true
    echo "$set $c rep $rep: $(python3 "$here/dataset-links.py" summary "$work/links.txt" "$t0" "$t1")" >>"$out/dataset-links.txt"
    if [ "${BENCH_LOGS:-0}" = 1 ]; then
      mkdir -p "$out/logs"
      { echo "# t0 $t0 t1 $t1"; cat "$work/links.txt"; } >"$out/logs/$set-$c-$rep.links"
    fi
  fi
  local wall; wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
  local ok=0
  if [ "$rc" = 0 ] && (cd "$o" && sha256sum --quiet -c "$lists/SHA256SUMS" >/dev/null 2>&1); then ok=1; fi
  [ "$rc" = 0 ] || note=$(head -c 200 "$log" | tr '\n,"' '   ')
  [ "$rc" = 0 ] && [ "$ok" = 0 ] && note="a file differs from the served one"
  if [[ "$c" == braid* ]] && grep -q '^braid: timing:' "$log"; then
    # BRAID_TIMING=1 in the environment: the run's milestones (docs/download.md)
    echo "$set $c rep $rep wall $wall: $(grep '^braid: timing:' "$log" | tail -1)" >>"$out/dataset-timing.txt"
  fi
  if [ "${BENCH_LOGS:-0}" = 1 ]; then
    mkdir -p "$out/logs"
    cp "$log" "$out/logs/$set-$c-$rep.log"
    if [[ "$c" == braid* ]]; then cp "$work/braid.json" "$out/logs/$set-$c-$rep.json" 2>/dev/null || true; fi
  fi
  if [[ "$c" == braid* ]] && [ -s "$work/braid.json" ]; then
    jq -c --arg s "$set" --arg c "$c" --argjson r "$rep" \
      '{set: $s, contender: $c, rep: $r} + (. | del(.fileReports))' "$work/braid.json" >>"$jsonl"
  fi
  local files bytes; files=$(cat "$lists/count"); bytes=$(cat "$lists/bytes")
  local bound; bound=$(bound_s "$bytes")
  local frac fps
  frac=$(awk -v b="$bound" -v w="$wall" 'BEGIN { printf "%.3f", b / w }')
  fps=$(awk -v f="$files" -v w="$wall" 'BEGIN { printf "%.1f", f / w }')
  echo "$set,$c,$rep,$pos,$files,$bytes,$rc,$ok,$wall,$bound,$frac,$fps,$load1,\"$note\"" >>"$csv"
  printf 'dataset-bench: %-5s %-12s rep %d: rc %d ok %d %8.3f s = %s of the bound, %s files/s (load %s)\n' \
    "$set" "$c" "$rep" "$rc" "$ok" "$wall" "$frac" "$fps" "$load1" >&2
  rm -rf "$o"
}

# BENCH_PROBE=1: the state of the client and the mirrors before and after each run (sockets by
# state, processes per mirror, memory) into dataset-probe.txt
probe_nstat() { # ns: the namespace's TCP counters that tell lost SYNs, full accept queues, timeouts
  ip netns exec "$1" nstat -az 2>/dev/null | awk '$1 ~ /^(TcpExtListenOverflows|TcpExtListenDrops|TcpRetransSegs|TcpExtTCPTimeouts|TcpExtTCPSynRetrans|TcpAttemptFails|TcpExtTCPLossProbes|TcpExtTCPAbortOnData|TcpExtTCPReqQFullDrop|TcpExtTCPBacklogDrop)$/ && $2 > 0 { sub(/^Tcp(Ext)?/, "", $1); printf " %s=%s", $1, $2 }'
}

probe_state() { # label
  local i ns
  {
    echo "$1 $(date +%s.%N)"
    echo "  client: $(ip netns exec "$TB_CLIENT" ss -tan | awk 'NR > 1 { n[$1]++ } END { for (s in n) printf "%s=%d ", s, n[s] }')$(probe_nstat "$TB_CLIENT")"
    for i in $(seq "$(wc -w <<<"$RATES")"); do
      ns=$(tb_ns "$i")
      echo "  m$i: procs=$(ip netns pids "$ns" | wc -l) $(ip netns exec "$ns" ss -tan | awk 'NR > 1 { n[$1]++ } END { for (s in n) printf "%s=%d ", s, n[s] }')$(probe_nstat "$ns")"
    done
    echo "  mem: $(awk '/^(MemFree|Dirty|Writeback|Cached):/ { printf "%s %s kB ", $1, $2 }' /proc/meminfo); load $(cut -d' ' -f1-3 /proc/loadavg)"
  } >>"$out/dataset-probe.txt"
}

contenders=${BENCH_CONTENDERS:-"braid braid-j64 aria2 aria2-tuned guc guc-tuned"}
read -r -a cs <<<"$contenders"
for set in $sets; do
  make_set "$set"
  tb_up "$work/www" "$RATES" "" 0 1 0 ""
  for rep in $(seq "$reps"); do
    n=${#cs[@]}
    for j in $(seq 0 $((n - 1))); do
      run_one "$set" "${cs[$(((j + rep - 1) % n))]}" "$rep" "$((j + 1))"
    done
  done
  tb_down
done
echo "dataset-bench: results in $csv" >&2
if [ "$out" = "$repo/docs/benchmarks" ]; then
  python3 "$here/dataset-report.py" "$out" "$repo/docs/benchmarks.md" >&2
else
  python3 "$here/dataset-report.py" "$out" >&2
fi
