#!/usr/bin/env bash
# Benchmark harness for issues 7 and 17: runs the scenarios of paper 003 section 4.4 and those of
# issue 17 on the namespace testbed (testbed.sh), every contender in the same run, alternating,
# several repetitions, each scenario at one or more sets of per-mirror round-trip times, and
# writes one CSV row per download. report.py turns the rows into docs/benchmarks.md and plots.
# Root only. Everything it creates is named braidb-* (TB_PREFIX) and removed on exit, even after
# a failure.
#
# Usage: src/test/bench/bench.sh [--smoke] [--reps N] [--scenarios "1 2a ..."] [--rtts "SETS"]
#                                [--out DIR]
#        src/test/bench/bench.sh --cleanup
#   --smoke      one scenario (two 40 Mbit/s mirrors at 20 ms, 5 MB, curl and Braid's default,
#                one repetition); used by the JUnit smoke test
#   --reps N     repetitions per contender (default 3)
#   --scenarios  which scenarios to run (default: all: 1 2a 2b 3 4s 4w 5 6 7 small six kill
#                trace 1g local grid)
#   --rtts SETS  round-trip-time sets to run every selected scenario at, space-separated, each a
#                comma-separated list of ms, one per mirror (cycled when shorter): e.g.
#                --rtts "0 20,50,80,120". Default: each scenario's own (the paper's scenarios
#                1-3, 5-7 "0"; 4s, 4w, small, six, kill, trace, 1g "0 20,50,80,120
#                50,100,150,200"); "local" always runs on loopback at 0.
#   --out DIR    where results.csv, braid-runs.jsonl, machine.txt, rtt-check.csv, delayline.log
#                and timelines go (default docs/benchmarks)
#   --cleanup    remove leftovers of an interrupted run (namespaces, links, processes braidb-*)
# Environment: BENCH_CONTENDERS replaces every scenario's contenders (debugging);
# BENCH_TRACES the directory of the HSDPA traces (default ../shared/data/traces/hsdpa);
# TB_PREFIX and TB_NET run the harness under other names and addresses (see testbed.sh);
# Braid contenders besides the schemes: braid-pipelined (--pipeline), braid-pipelined1 (--pipeline
# --connections-per-source 1), braid-c1 (--connections-per-source 1),
# braid-norenew (--pipeline, BRAID_JAVA_OPTS=-Dbraid.renew=false), braid-alt (the default with
# BRAID_JAVA_OPTS=$BENCH_ALT_OPTS, to compare a -D switch such as -Dbraid.renewSequential=true
# within one build), braid-base (the default scheme from the checkout BENCH_BASE, its jar built:
# to compare two builds in one run); BENCH_BRAID_LOG sets BRAID_LOG for
# braid contenders and keeps each run's log in DIR/braid-logs/.
# GUC_STREAMS the parallel streams of the guc-p contender (default 8, paper 003's setting);
# BENCH_GRID_MB the file size of scenario grid in MB (default 200; smaller for a quick check).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
# shellcheck source=testbed.sh
. "$here/testbed.sh"

work=/tmp/${TB_PREFIX}work
shm=/dev/shm/${TB_PREFIX}out  # the local scenario writes its 2 GB here: memory, not the disk
reps=3
guc_streams=${GUC_STREAMS:-8}
grid_mb=${BENCH_GRID_MB:-200}
scenarios="1 2a 2b 3 4s 4w 5 6 7 small six kill trace 1g local grid"
rtts=""
out="$repo/docs/benchmarks"
smoke=0
run_timeout=300
while [ $# -gt 0 ]; do
  case "$1" in
    --smoke) smoke=1; reps=1; scenarios=smoke; run_timeout=60; out=$work/smoke; shift ;;
    --reps) reps=$2; shift 2 ;;
    --scenarios) scenarios=$2; shift 2 ;;
    --rtts) rtts=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --cleanup) tb_need_root; tb_cleanup; rm -rf "$work" "$shm" "$TB_STATE"; exit 0 ;;
    -h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench: unknown option: $1" >&2; exit 2 ;;
  esac
done
for s in $scenarios; do
  case " smoke 1 2a 2b 3 4s 4w 5 6 7 small six kill trace 1g local grid " in
    *" $s "*) ;;
    *) echo "bench: unknown scenario: $s" >&2; exit 2 ;;
  esac
done
[[ "$reps" =~ ^[1-9][0-9]*$ ]] || { echo "bench: --reps: expected a positive number: '$reps'" >&2; exit 2; }
for set in $rtts; do
  [[ "$set" =~ ^[0-9]+(\.[0-9]+)?(,[0-9]+(\.[0-9]+)?)*$ ]] \
    || { echo "bench: --rtts: expected comma-separated ms per set, e.g. \"0 20,50\": '$set'" >&2; exit 2; }
done

tb_need_root
for tool in curl jq java cmp openssl /usr/sbin/nginx; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is not installed" >&2; exit 1; }
done
if [ "$smoke" = 0 ]; then
  for tool in aria2c globus-gridftp-server globus-url-copy xrootd xrdcp /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "bench: $tool is not installed (run src/test/bench/install)" >&2; exit 1; }
  done
fi

jar="$repo/cli/target/braid.jar"
bgpids=()
cleanup() {
  local p
  for p in ${bgpids[@]+"${bgpids[@]}"}; do kill "$p" 2>/dev/null || true; done
  tb_down 2>/dev/null || true
  rm -rf "$work/out" "$shm"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

tb_cleanup
mkdir -p "$work/www" "$work/out" "$out"
if [ "$smoke" = 0 ] || [ ! -f "$jar" ]; then
  # always rebuild for a full run: the braid launcher's staleness check is unreliable (see the report)
  (cd "$repo" && ./mvnw -B -q -DskipTests -pl cli -am package) >&2
fi
# built: the launcher need not look for changed sources before each run
export BRAID_NO_BUILD=1
# Braid runs through its launcher, as users run it; this first call records the launcher's
# class-data archive for the new jar, so that no measured run pays for it
"$repo/braid" --version >&2
if [[ " ${BENCH_CONTENDERS:-} " == *" braid-base "* ]]; then
  [ -f "${BENCH_BASE:-}/cli/target/braid.jar" ] \
    || { echo "bench: braid-base needs BENCH_BASE, a checkout with its jar built" >&2; exit 1; }
  "$BENCH_BASE/braid" --version >&2
fi

# Deterministic test files: AES-CTR keystream of a fixed key, size in decimal MB.
make_file() { # mb
  local f="$work/www/f$1"
  if [ ! -f "$f" ] || [ "$(stat -c %s "$f")" != $(($1 * 1000000)) ]; then
    head -c $(($1 * 1000000)) /dev/zero \
      | openssl enc -aes-128-ctr -nosalt -K 000102030405060708090a0b0c0d0e0f -iv 0 2>/dev/null >"$f.tmp"
    mv "$f.tmp" "$f"
  fi
  sha256sum "$f" | cut -d' ' -f1 >"$f.sha256"
}

# TCP payload per byte tbf counts: 1448 bytes of data in a 1514-byte frame (MTU 1500, TCP
# timestamps). The bound is the max-flow of the link rates times this.
EFF="1448/1514"

maxflow() { # "rates" "shared" uplink "excluded mirror" -> Mbit/s (0 for unshaped local mirrors)
  if tb_is_local; then echo 0; return; fi
  awk -v rates="$1" -v shared=" $2 " -v up="$3" -v ex="$4" 'BEGIN {
    n = split(rates, r, " "); d = 0; s = 0
    for (i = 1; i <= n; i++) { if (i == ex) continue; if (index(shared, " " i " ")) s += r[i]; else d += r[i] }
    if (up > 0 && s > up) s = up
    print d + s }'
}

bound_bps() { # size -> bytes/s of TCP payload the network can carry for this scenario
  local b1 b2
  b1=$(maxflow "$RATES" "$SHARED" "$UPLINK" 0)
  if [ "$EVENT" = trace ]; then
    trace_bound "$1"
  elif [[ "$EVENT" == kill:* ]]; then
    # the ideal download: at full max-flow until F x the bound time (F x SIZE bytes), the rest
    # without the killed mirror
    b2=$(maxflow "$RATES" "$SHARED" "$UPLINK" "$(failing)")
    awk -v s="$1" -v F="$(cut -d: -f3 <<<"$EVENT")" -v a="$b1" -v b="$b2" -v e="$EFF" 'BEGIN {
      split(e, q, "/"); f = q[1] / q[2]; A = a * 1e6 / 8 * f; B = b * 1e6 / 8 * f
      d = F * s; if (d > s) d = s; printf "%.0f", s / (d / A + (s - d) / B) }'
  elif [[ "$EVENT" == fail:* ]]; then
    # the file bytes that had crossed the links when the mirror failed (all of them if it never did)
    local sent=$(( $1 * 1514 / 1448 ))
    [ -f "$work/failed-at" ] && sent=$(cat "$work/failed-at")
    b2=$(maxflow "$RATES" "$SHARED" "$UPLINK" "$(failing)")
    awk -v s="$1" -v x="$sent" -v a="$b1" -v b="$b2" -v e="$EFF" 'BEGIN { split(e, q, "/"); f = q[1] / q[2];
      d = x * f; if (d > s) d = s
      A = a * 1e6 / 8 * f; B = b * 1e6 / 8 * f; printf "%.0f", s / (d / A + (s - d) / B) }'
  else
    awk -v a="$b1" -v e="$EFF" 'BEGIN { split(e, q, "/"); printf "%.0f", a * 1e6 / 8 * q[1] / q[2] }'
  fi
}

nominal_bps() { awk -v a="$(maxflow "$RATES" "$SHARED" "$UPLINK" 0)" 'BEGIN { printf "%.0f", a * 1e6 / 8 }'; }

failing() { # the mirror the scenario's event kills, or 0
  case "$EVENT" in fail:*) echo "${EVENT#fail:}" ;; kill:*) cut -d: -f2 <<<"$EVENT" ;; *) echo 0 ;; esac
}

urls() { # mb -> one URL per mirror, in the scenario's order (fastest first)
  local i
  for i in $(seq "$(wc -w <<<"$RATES")"); do
    # http://ADDRESS/ for the testbed's mirrors (the GridFTP and XRootD URLs are derived from it)
    if tb_is_local; then echo "http://$(tb_listen "$i")/f$1"; else echo "http://$(tb_addr "$i")/f$1"; fi
  done
}

best_mirror() { # index of the fastest mirror that does not fail (the base case of paper 003)
  awk -v rates="$RATES" -v ex="$(failing)" 'BEGIN { n = split(rates, r, " "); b = 0
    for (i = 1; i <= n; i++) if (i != ex && (b == 0 || r[i] > r[b])) b = i; print b }'
}

reset_testbed() {
  local i=0 r
  for r in $RATES; do
    i=$((i + 1))
    tb_is_local || tb_rate $i "$r"
    [ -f "$TB_STATE/nginx$i/master.pid" ] || tb_start_mirror $i
  done
}

# --- rates replayed from traces (scenario "trace")

TRACE_NAMES="norway_bus_1 norway_train_13 norway_tram_55 norway_car_3"  # mirror 1, 2, 3, 4

# Writes $work/trace-I for every mirror: the HSDPA trace of TRACE_NAMES scaled so that its mean
# is the mirror's rate in RATES, at least 1 Mbit/s, repeated up to 600 s (seconds Mbit/s).
make_traces() {
  local dir=${BENCH_TRACES:-} d i=0 r name
  for d in "$repo/../shared/data/traces/hsdpa" /work/shared/data/traces/hsdpa; do
    [ -n "$dir" ] || { [ -d "$d" ] && dir=$d; } || true
  done
  [ -d "$dir" ] || { echo "bench: no HSDPA traces (set BENCH_TRACES to ../shared/data/traces/hsdpa)" >&2; exit 1; }
  local -a names; read -r -a names <<<"$TRACE_NAMES"
  for r in $RATES; do
    i=$((i + 1))
    name=${names[$(((i - 1) % ${#names[@]}))]}
    [ -f "$dir/$name" ] || { echo "bench: no trace $dir/$name" >&2; exit 1; }
    awk -v mean="$r" '$1 ~ /^[0-9.]+$/ { t[n] = $1; v[n] = $2; s += $2; n++ }
      END { if (n < 2 || s <= 0) exit 1
        k = mean * n / s; period = t[n - 1] - t[0] + (t[n - 1] - t[0]) / (n - 1)
        for (c = 0; c * period < 600; c++)
          for (j = 0; j < n; j++) { x = v[j] * k; if (x < 1) x = 1
            printf "%.3f %.1f\n", c * period + t[j] - t[0], x } }' "$dir/$name" >"$work/trace-$i" \
      || { echo "bench: cannot read trace $dir/$name" >&2; exit 1; }
  done
}

# The bound of a trace run: the time T at which the links, at their replayed rates, have carried
# SIZE bytes of payload (x 1448/1514), as bytes per second SIZE / T.
trace_bound() { # size
  local n; n=$(wc -w <<<"$RATES")
  awk -v size="$1" -v n="$n" -v e="$EFF" -v dir="$work" 'BEGIN {
    split(e, q, "/"); f = q[1] / q[2]
    for (i = 1; i <= n; i++) { m[i] = 0; while ((getline line < (dir "/trace-" i)) > 0) {
      split(line, a, " "); T[i, m[i]] = a[1]; R[i, m[i]] = a[2]; m[i]++ } }
    got = 0; t = 0; dt = 0.001; for (i = 1; i <= n; i++) p[i] = 0
    while (got < size && t < 600) {
      rate = 0
      for (i = 1; i <= n; i++) { while (p[i] + 1 < m[i] && T[i, p[i] + 1] <= t) p[i]++; rate += R[i, p[i]] }
      got += rate * 1e6 / 8 * f * dt; t += dt }
    printf "%.0f", size / t }'
}

start_event() { # size -> starts the scenario's event in the background
  case "$EVENT" in
    trace)
      local i
      for i in $(seq "$(wc -w <<<"$RATES")"); do tb_replay "$i" "$work/trace-$i" & bgpids+=($!); done
      ;;
    kill:*)
      # kill:M:F - mirror M's server processes are killed at F times the bound time (the time
      # the whole file takes at the max-flow of every link), counted from the contender's start
      local m f base
      IFS=: read -r _ m f <<<"$EVENT"
      KILL_AT=$(awk -v s="$1" -v a="$(maxflow "$RATES" "$SHARED" "$UPLINK" 0)" -v f="$f" -v e="$EFF" \
        'BEGIN { split(e, q, "/"); printf "%.2f", f * s / (a * 1e6 / 8 * q[1] / q[2]) }')
      base=$(tb_sent)
      rm -f "$work/failed-at"
      (
        sleep "$KILL_AT"
        # the bytes that had crossed the links when it died (a note; the bound is the ideal one)
        echo $(($(tb_sent) - base)) >"$work/failed-at"
        tb_stop_mirror "$m"
      ) & bgpids+=($!)
      ;;
    swap:*)
      # swap:A:B:T - mirrors A and B exchange rates T seconds after the contender starts
      local a b t ra rb
      IFS=: read -r _ a b t <<<"$EVENT"
      ra=$(cut -d' ' -f"$a" <<<"$RATES"); rb=$(cut -d' ' -f"$b" <<<"$RATES")
      printf '0 %s\n%s %s\n' "$ra" "$t" "$rb" >"$work/trace$a"
      printf '0 %s\n%s %s\n' "$rb" "$t" "$ra" >"$work/trace$b"
      tb_replay "$a" "$work/trace$a" & bgpids+=($!)
      tb_replay "$b" "$work/trace$b" & bgpids+=($!)
      ;;
    fail:*)
      # the mirror's nginx is shut down once about half the file has crossed the mirror links
      local m=${EVENT#fail:} base half
      # tc counts frames: 1514 bytes on the link carry 1448 bytes of the file
      base=$(tb_sent); half=$(($1 / 2 * 1514 / 1448))
      rm -f "$work/failed-at"
      (
        x=0
        while [ "$x" -lt "$half" ]; do sleep 0.02; x=$(($(tb_sent) - base)); done
        tb_stop_mirror "$m"
        # where it really failed (polling lags): the bound of this run is computed from it
        echo "$x" >"$work/failed-at"
      ) & bgpids+=($!)
      ;;
  esac
}

stop_event() {
  local p
  for p in ${bgpids[@]+"${bgpids[@]}"}; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
  bgpids=()
}

csv="$out/results.csv"
jsonl="$out/braid-runs.jsonl"
header="scenario,label,size,contender,rep,position,rc,ok,wall_s,transfer_s,bound_Bps,nominal_Bps,load1,fast_idle_frac,max_idle_frac,dropped,rtt_ms,cpu_s,peak_mb,note"
if [ ! -f "$csv" ]; then
  echo "$header" >"$csv"
elif [ "$(head -1 "$csv")" != "$header" ]; then
  echo "bench: $csv has other columns (an older harness); move it away first" >&2
  exit 1
fi
[ -f "$out/rtt-check.csv" ] || echo "scenario,rtt_ms,mirror,configured_ms,connect_ms" >"$out/rtt-check.csv"

run_one() { # contender mb rep position plot(0|1)
  local c=$1 mb=$2 rep=$3 pos=$4 plot=$5
  local odir="$work/out"
  [ "$SCEN" = local ] && odir=$shm
  mkdir -p "$odir"
  local size=$((mb * 1000000)) o="$odir/f$mb" rc=0 t0 t1 wall transfer="" note=""
  local fast_idle="" max_idle="" dropped="" cpu="" peak=""
  local -a u; mapfile -t u < <(urls "$mb")
  # CPU seconds (user + system) and peak resident memory of the contender's process tree
  local -a timed=(timeout "$run_timeout")
  [ -x /usr/bin/time ] && timed=(/usr/bin/time -o "$work/time.txt" -f "%U %S %M" "${timed[@]}")
  rm -f "$o" "$o".* "$work/time.txt"
  reset_testbed
  local load1; load1=$(cut -d' ' -f1 /proc/loadavg)
  local log="$work/run.log"
  start_event "$size"
  t0=$(date +%s.%N)
  case "$c" in
    curl)
      transfer=$("${timed[@]}" ip netns exec "$TB_CLIENT" curl -sS -f -o "$o" -w '%{time_total}' \
        "${u[$(($(best_mirror) - 1))]}" 2>"$log") || rc=$? ;;
    aria2|aria2-tuned)
      local -a opts=()
      [ "$c" = aria2-tuned ] && opts=(-k 1M -s "${#u[@]}" -x "${#u[@]}")
      "${timed[@]}" ip netns exec "$TB_CLIENT" aria2c -q --allow-overwrite=true \
        --auto-file-renaming=false ${opts[@]+"${opts[@]}"} -d "$odir" -o "f$mb" "${u[@]}" >"$log" 2>&1 || rc=$? ;;
    xrdcp)
      # xrdcp's multi-source ("extreme") copy takes its sources from a Metalink file
      local meta="$odir/f$mb.meta4" i=0 r
      {
        echo '<?xml version="1.0" encoding="UTF-8"?>'
        echo '<metalink xmlns="urn:ietf:params:xml:ns:metalink"><file name="f'"$mb"'">'
        echo "<size>$size</size>"
        for r in "${u[@]}"; do
          i=$((i + 1))
          echo "<url priority=\"$i\">$(echo "$r" | sed "s|^http://\([0-9.]*\)/|root://\1:1094/$work/www/|")</url>"
        done
        echo '</file></metalink>'
      } >"$meta"
      "${timed[@]}" ip netns exec "$TB_CLIENT" xrdcp -f -s --sources "${#u[@]}" "$meta" "$o" \
        >"$log" 2>&1 || rc=$? ;;
    guc)
      "${timed[@]}" ip netns exec "$TB_CLIENT" globus-url-copy \
        "ftp://$(tb_addr "$(best_mirror)"):2811$work/www/f$mb" "file://$o" >"$log" 2>&1 || rc=$? ;;
    guc-p)
      # the grid user's tuned tool: MODE E with GUC_STREAMS parallel streams (paper 003 used 8)
      # from the best single mirror (globus-url-copy reads one source)
      "${timed[@]}" ip netns exec "$TB_CLIENT" globus-url-copy -p "$guc_streams" \
        "ftp://$(tb_addr "$(best_mirror)"):2811$work/www/f$mb" "file://$o" >"$log" 2>&1 || rc=$? ;;
    braid-*)
      local spec=${c#braid-} scheme k="" ; scheme=${spec%%-*}
      [ "$scheme" != "$spec" ] && k=${spec#*-}
      if [ "$spec" = gridftp ]; then
        scheme=adaptive
        mapfile -t u < <(urls "$mb" | sed "s|^http://\([0-9.]*\)/|gsiftp://\1:2811$work/www/|")
      elif [ "$spec" = xrootd ]; then
        scheme=adaptive
        mapfile -t u < <(urls "$mb" | sed "s|^http://\([0-9.]*\)/|root://\1:1094/$work/www/|")
      fi
      local journal=(--no-journal)
      # scenario grid: the GridFTP stream counts are chosen from the history, so the journal of
      # the scenario's earlier repetitions (this round-trip-time set only) is kept
      [ "$SCEN" = grid ] && journal=(--journal "$work/journal-$SCEN$(rtt_slug).jsonl")
      local -a opts=(--json "${journal[@]}" --checksum "sha256:$(cat "$work/www/f$mb.sha256")")
      if [ "$spec" = pipelined ]; then  # the default scheme with --pipeline (issue 17)
        scheme=adaptive
        opts+=(--pipeline)
      elif [ "$spec" = pipelined1 ]; then  # the same, one connection per replica
        scheme=adaptive
        opts+=(--pipeline --connections-per-source 1)
      elif [ "$spec" = c1 ]; then  # the default scheme, one connection per replica
        scheme=adaptive
        opts+=(--connections-per-source 1)
      fi
      local -a envs=()
      local launcher="$repo/braid"
      if [ "$spec" = base ]; then  # the default scheme of another build (A/B)
        scheme=adaptive
        launcher="$BENCH_BASE/braid"
      fi
      [ -n "${BENCH_BRAID_LOG:-}" ] && envs+=("BRAID_LOG=$BENCH_BRAID_LOG")
      if [ "$spec" = norenew ]; then  # pipelined without renewing connections on a rising rate
        scheme=adaptive
        opts+=(--pipeline)
        envs+=(BRAID_JAVA_OPTS=-Dbraid.renew=false)
      elif [ "$spec" = alt ]; then  # the default with BENCH_ALT_OPTS as BRAID_JAVA_OPTS (A/B)
        scheme=adaptive
        envs+=("BRAID_JAVA_OPTS=${BENCH_ALT_OPTS:-}")
      fi
      opts+=(--scheme "$scheme")
      [ -n "$k" ] && opts+=(--blocks "$k")
      if [ "$scheme" = history ]; then
        local i=0 r
        for r in $RATES; do opts+=(--rate "${u[$i]}=${r}Mbit/s"); i=$((i + 1)); done
      fi
      [ "$plot" = 1 ] && opts+=(--plot "$out/timeline-$SCEN$(rtt_slug)-$c.png")
      "${timed[@]}" ip netns exec "$TB_CLIENT" env ${envs[@]+"${envs[@]}"} "$launcher" get "${u[@]}" -o "$o" \
        "${opts[@]}" >"$work/braid.json" 2>"$log" || rc=$?
      if [ -n "${BENCH_BRAID_LOG:-}" ]; then
        mkdir -p "$out/braid-logs" && cp "$log" "$out/braid-logs/$SCEN$(rtt_slug)-$c-$rep.log"
      fi ;;
    *) echo "bench: unknown contender $c" >&2; exit 2 ;;
  esac
  t1=$(date +%s.%N)
  stop_event
  wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
  if [ -s "$work/time.txt" ]; then  # the last line: time's own, after any "Command exited" line
    read -r cpu peak < <(tail -1 "$work/time.txt" | awk 'NF == 3 { printf "%.2f %.1f\n", $1 + $2, $3 / 1024 }') || true
  fi
  tb_is_local || tb_delay_ok || { echo "bench: the delay line died during the run: $(tail -3 "$TB_STATE/delayline.log")" >&2; exit 1; }
  case "$c" in aria2|aria2-tuned|guc|guc-p|xrdcp) transfer=$wall ;; esac
  # braid get exits 3 when the file is complete and verified but a replica failed on the way (a
  # killed or failing mirror): a success here, with the replica's failure in the note; the CSV
  # keeps the real exit code
  local code=$rc
  if [[ "$c" == braid-* ]] && [ "$rc" = 3 ]; then
    note="exit 3 (verified; a replica failed): $(head -c 160 "$log" | tr '\n,"' '  ')"
    rc=0
  fi
  if [[ "$c" == braid-* ]] && [ "$rc" = 0 ]; then
    transfer=$(jq -r .seconds "$work/braid.json")
    local fast; fast=$(best_mirror)
    fast_idle=$(jq -r --arg u "${u[$((fast - 1))]}" '(.replicas[] | select(.url == $u) | .idleSeconds) / .seconds' "$work/braid.json")
    max_idle=$(jq -r '([.replicas[] | select(.dropped == null) | .idleSeconds] | max) as $m | $m / .seconds' "$work/braid.json")
    dropped=$(jq -r '[.replicas[] | select(.dropped != null)] | length' "$work/braid.json")
    jq -c --arg s "$SCEN" --arg c "$c" --argjson r "$rep" '{scenario: $s, contender: $c, rep: $r} + .' \
      "$work/braid.json" >>"$jsonl"
  fi
  local ok=0
  if [ "$rc" = 0 ] && cmp -s "$o" "$work/www/f$mb"; then ok=1; fi
  [ "$rc" = 0 ] || note=$(head -c 200 "$log" | tr '\n,"' '  ' )
  [ "$rc" = 0 ] && [ "$ok" = 0 ] && note="output differs from the served file"
  [ -n "$transfer" ] || transfer=$wall
  if [[ "$EVENT" == fail:* || "$EVENT" == kill:* ]]; then
    local at="never"
    [ -f "$work/failed-at" ] && at=$(awk -v x="$(cat "$work/failed-at")" -v s="$size" 'BEGIN { printf "%.0f%%", 100 * x * 1448 / 1514 / s }')
    if [[ "$EVENT" == kill:* ]]; then
      note="${note:+$note; }mirror $(failing) killed at $KILL_AT s; $at of the file had crossed the links"
    else
      note="${note:+$note; }mirror $(failing) failed at $at of the file"
    fi
  fi
  echo "$SCEN,\"$LABEL\",$size,$c,$rep,$pos,$code,$ok,$wall,$transfer,$(bound_bps "$size"),$(nominal_bps),$load1,$fast_idle,$max_idle,$dropped,$RTT_LABEL,$cpu,$peak,\"$note\"" >>"$csv"
  printf 'bench: %-5s rtt %-15s %-20s %5s MB rep %d: rc %d ok %d %7.3f s (wall %s, cpu %s s, %s MB) load %s\n' \
    "$SCEN" "$RTT_LABEL" "$c" "$mb" "$rep" "$code" "$ok" "$transfer" "$wall" "${cpu:-?}" "${peak:-?}" "$load1" >&2
  rm -f "$o" "$o".*
}

# The delays of one round-trip-time set for this scenario's mirrors ("20,50" cycled over them).
expand_rtts() { # set mirrors
  awk -v s="$1" -v n="$2" 'BEGIN { k = split(s, d, ","); for (i = 1; i <= n; i++) printf "%s%s", (i > 1 ? " " : ""), d[(i - 1) % k + 1] }'
}

rtt_slug() { [ "$RTT_LABEL" = 0 ] || echo "-rtt${RTT_LABEL//\//-}"; }

# Checks the testbed's round-trip times: curl's connect time (SYN to SYN-ACK: one round trip)
# to every mirror, the median of three, next to the configured delay, in rtt-check.csv.
rtt_check() {
  local i d k ms
  local -a ds; read -r -a ds <<<"$DELAYS"
  for i in $(seq "${#ds[@]}"); do
    d=${ds[$((i - 1))]}
    ms=$(for k in 1 2 3; do
        ip netns exec "$TB_CLIENT" curl -s -o /dev/null -m 10 -w '%{time_connect}\n' "http://$(tb_listen "$i")/" || true
      done | sort -n | sed -n 2p | awk '{ printf "%.2f", $1 * 1000 }')
    echo "$SCEN,$RTT_LABEL,$i,$d,$ms" >>"$out/rtt-check.csv"
    echo "bench: rtt check: mirror $i configured $d ms, curl connect $ms ms" >&2
  done
}

# scenario ID "label" "rates" "shared" uplink EVENT "sizes" "contenders" plot(0|1) ["rtt sets"]
scenario() {
  SCEN=$1; LABEL=$2; RATES=$3; SHARED=$4; UPLINK=$5; EVENT=$6
  local sizes=$7 contenders=$8 plot=$9 sets=${10:-0} mb rep set
  local -a cs; read -r -a cs <<<"${BENCH_CONTENDERS:-$contenders}"  # override for debugging
  [ -n "$rtts" ] && [ "$SCEN" != local ] && sets=$rtts
  for mb in $sizes; do make_file "$mb"; done
  [ "$EVENT" = trace ] && make_traces
  [ "$SCEN" = grid ] && rm -f "$work"/journal-grid*.jsonl  # no history from an earlier run
  local gridftp=0
  [[ " ${cs[*]} " =~ " "(guc|guc-p|braid-gridftp)" " ]] && gridftp=1
  local xrootd=0
  [[ " ${cs[*]} " =~ " "(xrdcp|braid-xrootd)" " ]] && xrootd=1
  for set in $sets; do
    DELAYS=$(expand_rtts "$set" "$(wc -w <<<"$RATES")")
    RTT_LABEL=$(tr ' ' / <<<"$DELAYS")
    [ -n "$(tr -d ' 0./' <<<"$RTT_LABEL")" ] || RTT_LABEL=0
    echo "bench: scenario $SCEN: $LABEL; round-trip times $RTT_LABEL ms" >&2
    if [ "$SCEN" = local ]; then
      tb_up_local "$work/www" "$(wc -w <<<"$RATES")"
      for mb in $sizes; do cat "$work/www/f$mb" >/dev/null; done  # served from the page cache
    else
      tb_up "$work/www" "$RATES" "$SHARED" "$UPLINK" "$gridftp" "$xrootd" "$DELAYS"
      [ "$RTT_LABEL" = 0 ] || rtt_check
    fi
    for mb in $sizes; do
      for rep in $(seq "$reps"); do
        # contenders alternate; the starting contender rotates with each repetition
        local n=${#cs[@]} j
        for j in $(seq 0 $((n - 1))); do
          local c=${cs[$(((j + rep - 1) % n))]}
          run_one "$c" "$mb" "$rep" "$((j + 1))" "$([ "$plot" = 1 ] && [ "$rep" = 1 ] && echo 1 || echo 0)"
        done
      done
    done
    tb_down
    if [ -f "$TB_STATE/delayline.log" ]; then
      { echo "== scenario $SCEN, round-trip times $RTT_LABEL ms"; cat "$TB_STATE/delayline.log"; } >>"$out/delayline.log"
    fi
  done
}

machine() {
  {
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "commit: $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)"
    echo "nproc: $(nproc)"
    echo "cpu: $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
    echo "memory: $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
    echo "kernel: $(uname -sr)"
    echo "java: $(java -version 2>&1 | head -1)"
    echo "nginx: $(/usr/sbin/nginx -v 2>&1)"
    echo "curl: $(curl --version | head -1 | cut -d' ' -f1-2)"
    command -v aria2c >/dev/null && echo "aria2c: $(aria2c --version | head -1)"
    echo "globus-gridftp-server: $(globus-gridftp-server -version 2>&1 | head -1)"
    command -v xrdcp >/dev/null && echo "xrdcp: $(xrdcp --version 2>&1 | head -1)"
    echo "tcp congestion control: $(sysctl -n net.ipv4.tcp_congestion_control)"
    echo "delay line: $(gcc --version 2>/dev/null | head -1), $(iptables-legacy --version 2>/dev/null || iptables --version 2>/dev/null)"
    echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
  }
}

ALL="curl aria2 aria2-tuned xrdcp braid-adaptive braid-single braid-brute braid-history braid-conservative braid-aggressive guc braid-gridftp"
S4="curl aria2 aria2-tuned xrdcp braid-adaptive braid-history braid-conservative braid-aggressive braid-gridftp"
S7="braid-adaptive braid-conservative-5 braid-conservative-10 braid-conservative-15 braid-aggressive-5 braid-aggressive-10 braid-aggressive-15"
NEW="curl aria2 aria2-tuned braid-adaptive"  # issue 17's scenarios
GRID="xrdcp braid-xrootd guc-p braid-gridftp"  # issue 20: XRootD and GridFTP MODE E side by side
WAN="0 20,50,80,120 50,100,150,200"          # issue 17's round-trip-time sets (ms per mirror)

machine | sed 's/^/start /' >"$out/machine.txt"
for s in $scenarios; do
  case "$s" in
    smoke) scenario smoke "smoke: two equally slow mirrors" "40 40" "" 0 none 5 "curl braid-adaptive" 0 20 ;;
    1) scenario 1 "two equally slow mirrors, fast client" "40 40" "" 0 none 100 "$ALL" 0 ;;
    2a) scenario 2a "fast and slow mirror" "80 20" "" 0 none 50 "$ALL" 0 ;;
    2b) scenario 2b "fast, medium and slow mirror" "80 40 20" "" 0 none 50 "$ALL" 1 ;;
    3) scenario 3 "two mirrors behind one 40 Mbit/s bottleneck" "40 40" "1 2" 40 none 25 "$ALL" 0 ;;
    4s) scenario 4s "four unequal mirrors, static" "80 40 20 10" "" 0 none 200 "$S4" 1 "$WAN" ;;
    4w) scenario 4w "four unequal mirrors, 80 and 10 swap at 4 s" "80 40 20 10" "" 0 swap:1:4:4 200 "$S4" 0 "$WAN" ;;
    5) scenario 5 "three mirrors, the 40 Mbit/s one fails halfway" "60 40 20" "" 0 fail:2 50 "$ALL" 0 ;;
    6) scenario 6 "file sizes, two mirrors" "80 40" "" 0 none "10 50 100" "curl aria2-tuned braid-adaptive braid-conservative" 0 ;;
    7) scenario 7 "block counts, four unequal mirrors" "80 40 20 10" "" 0 none 100 "$S7" 0 ;;
    small) scenario small "small file, four unequal mirrors" "80 40 20 10" "" 0 none 10 "$NEW" 0 "$WAN" ;;
    six) scenario six "six unequal mirrors" "100 50 30 20 10 5" "" 0 none 200 "$NEW" 0 "$WAN" ;;
    kill) scenario kill "four unequal mirrors, the fastest killed at 40% of the bound time" "80 40 20 10" "" 0 kill:1:0.4 200 "$NEW" 0 "$WAN" ;;
    trace) scenario trace "four mirrors replaying HSDPA traces scaled to 80/40/20/10 Mbit/s" "80 40 20 10" "" 0 trace 200 "$NEW" 0 "$WAN" ;;
    1g) scenario 1g "1 GB, four unequal mirrors" "80 40 20 10" "" 0 none 1000 "$NEW" 0 "$WAN" ;;
    grid) scenario grid "XRootD and GridFTP MODE E mirrors, four unequal" "80 40 20 10" "" 0 none "$grid_mb" "$GRID" 0 "$WAN" ;;
    local) scenario local "four unshaped local mirrors (loopback, page cache)" "0 0 0 0" "" 0 none 2000 "$NEW" 0 ;;
    *) echo "bench: unknown scenario: $s" >&2; exit 2 ;;
  esac
done
machine | sed 's/^/end /' >>"$out/machine.txt"
echo "bench: results in $csv" >&2
