#!/usr/bin/env bash
# Benchmark harness for issue 7: runs the scenarios of paper 003 section 4.4 on the namespace
# testbed (testbed.sh), every contender in the same run, alternating, several repetitions, and
# writes one CSV row per download. report.py turns the rows into docs/benchmarks.md and plots.
# Root only. Everything it creates is named braidb-* and removed on exit, even after a failure.
#
# Usage: src/test/bench/bench.sh [--smoke] [--reps N] [--scenarios "1 2a ..."] [--out DIR]
#        src/test/bench/bench.sh --cleanup
#   --smoke      one scenario (two 40 Mbit/s mirrors, 5 MB, curl and Braid's default, one
#                repetition); used by the JUnit smoke test
#   --reps N     repetitions per contender (default 3)
#   --scenarios  which scenarios to run (default: all: 1 2a 2b 3 4s 4w 5 6 7)
#   --out DIR    where results.csv, braid-runs.jsonl, machine.txt and timelines go
#                (default docs/benchmarks)
#   --cleanup    remove leftovers of an interrupted run (namespaces, links, processes braidb-*)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
# shellcheck source=testbed.sh
. "$here/testbed.sh"

reps=3
scenarios="1 2a 2b 3 4s 4w 5 6 7"
out="$repo/docs/benchmarks"
smoke=0
run_timeout=300
while [ $# -gt 0 ]; do
  case "$1" in
    --smoke) smoke=1; reps=1; scenarios=smoke; run_timeout=60; out=/tmp/braidb-work/smoke; shift ;;
    --reps) reps=$2; shift 2 ;;
    --scenarios) scenarios=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --cleanup) tb_need_root; tb_cleanup; rm -rf /tmp/braidb-work "$TB_STATE"; exit 0 ;;
    -h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench: unknown option: $1" >&2; exit 2 ;;
  esac
done

tb_need_root
for tool in curl jq java cmp openssl /usr/sbin/nginx; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is not installed" >&2; exit 1; }
done
if [ "$smoke" = 0 ]; then
  for tool in aria2c globus-gridftp-server globus-url-copy xrootd xrdcp; do
    command -v "$tool" >/dev/null || { echo "bench: $tool is not installed (run src/test/bench/install)" >&2; exit 1; }
  done
fi

work=/tmp/braidb-work
jar="$repo/cli/target/braid.jar"
bgpids=()
cleanup() {
  local p
  for p in ${bgpids[@]+"${bgpids[@]}"}; do kill "$p" 2>/dev/null || true; done
  tb_down 2>/dev/null || true
  rm -rf "$work/out"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

tb_cleanup
mkdir -p "$work/www" "$work/out" "$out"
if [ "$smoke" = 0 ] || [ ! -f "$jar" ]; then
  # always rebuild for a full run: the braid launcher's staleness check is unreliable (see the report)
  (cd "$repo" && ./mvnw -B -q -DskipTests -pl cli -am package) >&2
fi
# Braid runs through its launcher, as users run it; this first call records the launcher's
# class-data archive for the new jar, so that no measured run pays for it
"$repo/braid" --version >&2

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

maxflow() { # "rates" "shared" uplink "excluded mirror" -> Mbit/s
  awk -v rates="$1" -v shared=" $2 " -v up="$3" -v ex="$4" 'BEGIN {
    n = split(rates, r, " "); d = 0; s = 0
    for (i = 1; i <= n; i++) { if (i == ex) continue; if (index(shared, " " i " ")) s += r[i]; else d += r[i] }
    if (up > 0 && s > up) s = up
    print d + s }'
}

bound_bps() { # size -> bytes/s of TCP payload the network can carry for this scenario
  local b1 b2
  b1=$(maxflow "$RATES" "$SHARED" "$UPLINK" 0)
  if [[ "$EVENT" == fail:* ]]; then
    # the file bytes that had crossed the links when the mirror failed (all of them if it never did)
    local sent=$(( $1 * 1514 / 1448 ))
    [ -f "$work/failed-at" ] && sent=$(cat "$work/failed-at")
    b2=$(maxflow "$RATES" "$SHARED" "$UPLINK" "${EVENT#fail:}")
    awk -v s="$1" -v x="$sent" -v a="$b1" -v b="$b2" -v e="$EFF" 'BEGIN { split(e, q, "/"); f = q[1] / q[2];
      d = x * f; if (d > s) d = s
      A = a * 1e6 / 8 * f; B = b * 1e6 / 8 * f; printf "%.0f", s / (d / A + (s - d) / B) }'
  else
    awk -v a="$b1" -v e="$EFF" 'BEGIN { split(e, q, "/"); printf "%.0f", a * 1e6 / 8 * q[1] / q[2] }'
  fi
}

nominal_bps() { awk -v a="$(maxflow "$RATES" "$SHARED" "$UPLINK" 0)" 'BEGIN { printf "%.0f", a * 1e6 / 8 }'; }

urls() { # mb -> one URL per mirror, in the scenario's order (fastest first)
  local i
  for i in $(seq "$(wc -w <<<"$RATES")"); do echo "http://10.231.$i.1/f$1"; done
}

best_mirror() { # index of the fastest mirror that does not fail (the base case of paper 003)
  awk -v rates="$RATES" -v ex="${EVENT#fail:}" 'BEGIN { n = split(rates, r, " "); b = 0
    for (i = 1; i <= n; i++) if (i != ex && (b == 0 || r[i] > r[b])) b = i; print b }'
}

reset_testbed() {
  local i=0 r
  for r in $RATES; do
    i=$((i + 1))
    tb_rate $i "$r"
    [ -f "$TB_STATE/nginx$i/master.pid" ] || tb_start_mirror $i
  done
}

start_event() { # size -> starts the scenario's event in the background
  case "$EVENT" in
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
if [ ! -f "$csv" ]; then
  echo "scenario,label,size,contender,rep,position,rc,ok,wall_s,transfer_s,bound_Bps,nominal_Bps,load1,fast_idle_frac,max_idle_frac,dropped,note" >"$csv"
fi

run_one() { # contender mb rep position plot(0|1)
  local c=$1 mb=$2 rep=$3 pos=$4 plot=$5
  local size=$((mb * 1000000)) o="$work/out/f$mb" rc=0 t0 t1 wall transfer="" note=""
  local fast_idle="" max_idle="" dropped=""
  local -a u; mapfile -t u < <(urls "$mb")
  rm -f "$o" "$o".*
  reset_testbed
  local load1; load1=$(cut -d' ' -f1 /proc/loadavg)
  local log="$work/run.log"
  start_event "$size"
  t0=$(date +%s.%N)
  case "$c" in
    curl)
      transfer=$(timeout "$run_timeout" ip netns exec "$TB_CLIENT" curl -sS -f -o "$o" -w '%{time_total}' \
        "${u[$(($(best_mirror) - 1))]}" 2>"$log") || rc=$? ;;
    aria2|aria2-tuned)
      local -a opts=()
      [ "$c" = aria2-tuned ] && opts=(-k 1M -s "${#u[@]}" -x "${#u[@]}")
      timeout "$run_timeout" ip netns exec "$TB_CLIENT" aria2c -q --allow-overwrite=true \
        --auto-file-renaming=false ${opts[@]+"${opts[@]}"} -d "$work/out" -o "f$mb" "${u[@]}" >"$log" 2>&1 || rc=$? ;;
    xrdcp)
      # xrdcp's multi-source ("extreme") copy takes its sources from a Metalink file
      local meta="$work/out/f$mb.meta4" i=0 r
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
      timeout "$run_timeout" ip netns exec "$TB_CLIENT" xrdcp -f -s --sources "${#u[@]}" "$meta" "$o" \
        >"$log" 2>&1 || rc=$? ;;
    guc)
      timeout "$run_timeout" ip netns exec "$TB_CLIENT" globus-url-copy \
        "ftp://10.231.$(best_mirror).1:2811$work/www/f$mb" "file://$o" >"$log" 2>&1 || rc=$? ;;
    braid-*)
      local spec=${c#braid-} scheme k="" ; scheme=${spec%%-*}
      [ "$scheme" != "$spec" ] && k=${spec#*-}
      if [ "$spec" = gridftp ]; then
        scheme=adaptive
        mapfile -t u < <(urls "$mb" | sed "s|^http://\([0-9.]*\)/|gsiftp://\1:2811$work/www/|")
      fi
      local -a opts=(--scheme "$scheme" --json --no-journal --checksum "sha256:$(cat "$work/www/f$mb.sha256")")
      [ -n "$k" ] && opts+=(--blocks "$k")
      if [ "$scheme" = history ]; then
        local i=0 r
        for r in $RATES; do opts+=(--rate "${u[$i]}=${r}Mbit/s"); i=$((i + 1)); done
      fi
      [ "$plot" = 1 ] && opts+=(--plot "$out/timeline-$SCEN-$c.png")
      timeout "$run_timeout" ip netns exec "$TB_CLIENT" "$repo/braid" get "${u[@]}" -o "$o" \
        "${opts[@]}" >"$work/braid.json" 2>"$log" || rc=$? ;;
    *) echo "bench: unknown contender $c" >&2; exit 2 ;;
  esac
  t1=$(date +%s.%N)
  stop_event
  wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
  case "$c" in aria2|aria2-tuned|guc|xrdcp) transfer=$wall ;; esac
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
  if [[ "$EVENT" == fail:* ]]; then
    local at="never"
    [ -f "$work/failed-at" ] && at=$(awk -v x="$(cat "$work/failed-at")" -v s="$size" 'BEGIN { printf "%.0f%%", 100 * x * 1448 / 1514 / s }')
    note="${note:+$note; }mirror ${EVENT#fail:} failed at $at of the file"
  fi
  echo "$SCEN,\"$LABEL\",$size,$c,$rep,$pos,$rc,$ok,$wall,$transfer,$(bound_bps "$size"),$(nominal_bps),$load1,$fast_idle,$max_idle,$dropped,\"$note\"" >>"$csv"
  printf 'bench: %-4s %-22s %5s MB rep %d: rc %d ok %d %7.3f s (wall %s) load %s\n' \
    "$SCEN" "$c" "$mb" "$rep" "$rc" "$ok" "$transfer" "$wall" "$load1" >&2
  rm -f "$o" "$o".*
}

# scenario ID "label" "rates" "shared" uplink EVENT "sizes" "contenders" plot(0|1)
scenario() {
  SCEN=$1; LABEL=$2; RATES=$3; SHARED=$4; UPLINK=$5; EVENT=$6
  local sizes=$7 contenders=$8 plot=$9 mb rep
  local -a cs; read -r -a cs <<<"${BENCH_CONTENDERS:-$contenders}"  # override for debugging
  echo "bench: scenario $SCEN: $LABEL" >&2
  for mb in $sizes; do make_file "$mb"; done
  local gridftp=0
  [[ " ${cs[*]} " == *" guc "* || " ${cs[*]} " == *" braid-gridftp "* ]] && gridftp=1
  local xrootd=0
  [[ " ${cs[*]} " == *" xrdcp "* ]] && xrootd=1
  tb_up "$work/www" "$RATES" "$SHARED" "$UPLINK" "$gridftp" "$xrootd"
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
    echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
  }
}

ALL="curl aria2 aria2-tuned xrdcp braid-adaptive braid-single braid-brute braid-history braid-conservative braid-aggressive guc braid-gridftp"
S4="curl aria2 aria2-tuned xrdcp braid-adaptive braid-history braid-conservative braid-aggressive braid-gridftp"
S7="braid-adaptive braid-conservative-5 braid-conservative-10 braid-conservative-15 braid-aggressive-5 braid-aggressive-10 braid-aggressive-15"

machine | sed 's/^/start /' >"$out/machine.txt"
for s in $scenarios; do
  case "$s" in
    smoke) scenario smoke "smoke: two equally slow mirrors" "40 40" "" 0 none 5 "curl braid-adaptive" 0 ;;
    1) scenario 1 "two equally slow mirrors, fast client" "40 40" "" 0 none 100 "$ALL" 0 ;;
    2a) scenario 2a "fast and slow mirror" "80 20" "" 0 none 50 "$ALL" 0 ;;
    2b) scenario 2b "fast, medium and slow mirror" "80 40 20" "" 0 none 50 "$ALL" 1 ;;
    3) scenario 3 "two mirrors behind one 40 Mbit/s bottleneck" "40 40" "1 2" 40 none 25 "$ALL" 0 ;;
    4s) scenario 4s "four unequal mirrors, static" "80 40 20 10" "" 0 none 200 "$S4" 1 ;;
    4w) scenario 4w "four unequal mirrors, 80 and 10 swap at 4 s" "80 40 20 10" "" 0 swap:1:4:4 200 "$S4" 0 ;;
    5) scenario 5 "three mirrors, the 40 Mbit/s one fails halfway" "60 40 20" "" 0 fail:2 50 "$ALL" 0 ;;
    6) scenario 6 "file sizes, two mirrors" "80 40" "" 0 none "10 50 100" "curl aria2-tuned braid-adaptive braid-conservative" 0 ;;
    7) scenario 7 "block counts, four unequal mirrors" "80 40 20 10" "" 0 none 100 "$S7" 0 ;;
    *) echo "bench: unknown scenario: $s" >&2; exit 2 ;;
  esac
done
machine | sed 's/^/end /' >>"$out/machine.txt"
echo "bench: results in $csv" >&2
