#!/usr/bin/env bash
# Paper 003's prediction study on the WAN testbed (issue 8). Root only. One command regenerates
# the dataset and the table:
#
#   src/test/study/run-study.sh [--minutes 60] [--out DIR] [--seed 8] [--no-eval]
#   src/test/study/run-study.sh --eval-only DIR     evaluate an existing dataset (no root needed)
#   src/test/study/run-study.sh --cleanup           remove leftovers of an interrupted run
#
# What runs (see docs/prediction-study.md):
# - the testbed of the benchmarks (src/test/bench/testbed.sh) under its own names: namespaces
#   braids-*, addresses 10.232.x.y, so it never touches the benchmark's braidb-* / 10.231.x.y;
# - 3 mirrors, each a real globus-gridftp-server (-log-transfer) whose link to the client is shaped
#   with tc tbf, the rate replayed from real HSDPA throughput traces (scaled, slowed 4x);
# - competing network load: iperf3 TCP flows (0-8 at a time) from each mirror to the client
#   through the same shaped link, changing every 10-40 s;
# - each mirror's "disk": an ext4 file system on its own loop device (backing file in /dev/shm),
#   with a read bandwidth budget (cgroup v1 blkio throttle) shared by the GridFTP server and
#   background fio readers/writers of varying rate (0-7 MiB/s), visible in /proc/diskstats;
# - GridFTP reads of 1-50 MB (paper 003: 10 MB-1 GB, scaled by 1/20) at random intervals, eight
#   parallel streams (globus-url-copy -p 8), from the client namespace; the file's page cache is
#   dropped before each transfer so it is read from the loop device;
# - one `braid provider serve` per mirror parsing that server's real transfer log, probing the
#   network with 64 KiB range GETs from the mirror's nginx and the loop device's /proc/diskstats,
#   every 2 s (paper 003: every 5 min; time compression 150);
# - at the end the providers' SQLite stores are exported (transfers and probe series) into the
#   dataset directory, and the evaluation (org.braid.predictors.PredictionStudy) writes the table.
#
# Environment: STUDY_MIRRORS (1-3, default 3), STUDY_GAP_MEAN seconds between transfers (8),
# STUDY_DISK_MBPS read budget per mirror (8), STUDY_PROBE_SECONDS (2), STUDY_TRACES (HSDPA dir).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
export TB_PREFIX=braids- TB_NET=10.232 TB_BURST=${TB_BURST:-16kb}
export TB_STATE=/tmp/braids-state
# shellcheck source=../bench/testbed.sh
. "$repo/src/test/bench/testbed.sh"

STUDY_WORK=/tmp/braids-study      # served files, configs, stores, logs of one run
STUDY_SHM=/dev/shm/braids-study   # the loop devices' backing files
CGROUP=/sys/fs/cgroup/blkio
MIRRORS=${STUDY_MIRRORS:-3}
GAP_MEAN=${STUDY_GAP_MEAN:-8}
DISK_MBPS=${STUDY_DISK_MBPS:-8}
PROBE_SECONDS=${STUDY_PROBE_SECONDS:-2}
TRACES=${STUDY_TRACES:-}
for d in "$repo/../shared/data/traces/hsdpa" /work/shared/data/traces/hsdpa; do
  [ -n "$TRACES" ] || { [ -d "$d" ] && TRACES=$d; } || true
done
# file sizes in MB per size class (paper 003's 10M, 100M, 500M, 1G scaled by 1/20) and weights
SIZES=(1 2 4 8 16 24 40 50)
WEIGHTS=(3 3 3 3 2 2 2 2)
# mean link rate of each mirror in Mbit/s (the trace is scaled to it) and the traces it replays
TARGET_MBIT=(48 32 20)
TRACE_FILES=("norway_bus_1 norway_bus_16 norway_bus_7 norway_car_3" \
  "norway_train_13 norway_bus_9 norway_train_17 norway_bus_10" \
  "norway_tram_55 norway_train_21 norway_bus_12 norway_train_4")

log() { echo "study: $(date -u +%H:%M:%S) $*" >&2; }
die() { echo "study: $*" >&2; exit 1; }
usage() { echo "study: $*" >&2; exit 2; }

# --- internal subcommands, each run in its own session (setsid) so it can be stopped as a group

# Transfers from mirror I until the deadline: a random file, its cache dropped, globus-url-copy -p 8.
loop_transfers() { # i deadline seed
  local i=$1 deadline=$2 total=0 k w pick mb rc t0 t1
  RANDOM=$3
  for w in "${WEIGHTS[@]}"; do total=$((total + w)); done
  while [ "$(date +%s)" -lt "$deadline" ]; do
    sleep "$(awk -v r="$RANDOM" -v m="$GAP_MEAN" 'BEGIN { printf "%.2f", -m * log((r + 1) / 32769) }')"
    [ "$(date +%s)" -lt "$deadline" ] || break
    pick=$((RANDOM % total)); k=0
    while [ "$pick" -ge "${WEIGHTS[$k]}" ]; do pick=$((pick - WEIGHTS[k])); k=$((k + 1)); done
    mb=${SIZES[$k]}
    local f="$STUDY_WORK/disk$i/file-${mb}M.bin"
    dd if="$f" iflag=nocache count=0 status=none  # drop its page cache: read from the device
    t0=$(date +%s.%N)
    rc=0
    timeout 300 ip netns exec "$TB_CLIENT" globus-url-copy -p 8 -tcp-bs 65536 \
      "ftp://$(tb_addr "$i"):2811$f" file:///dev/null >>"$STUDY_WORK/gridftp-client$i.log" 2>&1 || rc=$?
    t1=$(date +%s.%N)
    echo "$t0,$t1,$mb,$rc" >>"$STUDY_WORK/transfers$i.csv"
  done
}

# Competing TCP flows through mirror I's shaped link: 0, 1, 2, 4 or 8 iperf3 flows for 10-40 s.
loop_netload() { # i deadline seed
  local i=$1 deadline=$2 flows dur choices=(0 0 1 2 4 8)
  RANDOM=$3
  while [ "$(date +%s)" -lt "$deadline" ]; do
    flows=${choices[$((RANDOM % ${#choices[@]}))]}
    dur=$((10 + RANDOM % 31))
    echo "$(date +%s.%N),$dur,$flows" >>"$STUDY_WORK/netload$i.csv"
    if [ "$flows" = 0 ]; then
      sleep "$dur"
    else
      timeout $((dur + 10)) ip netns exec "$(tb_ns "$i")" iperf3 -c "$TB_NET.$i.2" -p 5201 -t "$dur" -P "$flows" \
        >/dev/null 2>&1 || sleep 1
    fi
  done
}

# Background I/O on mirror I's disk, inside its blkio cgroup: fio at 0-7 MB/s for 10-40 s.
loop_diskload() { # i deadline seed
  local i=$1 deadline=$2 mbps dur choices=(0 0 2 4 6 7)
  RANDOM=$3
  echo $$ >"$CGROUP/braids-m$i/cgroup.procs"
  while [ "$(date +%s)" -lt "$deadline" ]; do
    mbps=${choices[$((RANDOM % ${#choices[@]}))]}
    dur=$((10 + RANDOM % 31))
    echo "$(date +%s.%N),$dur,$mbps" >>"$STUDY_WORK/diskload$i.csv"
    if [ "$mbps" = 0 ]; then
      sleep "$dur"
    else
      # 80% reads (they share the read budget with GridFTP), 20% writes, direct I/O
      fio --name=braids-bg$i --filename="$STUDY_WORK/disk$i/background.dat" --size=64m --bs=256k \
        --rw=randrw --rwmixread=80 --direct=1 --ioengine=psync --time_based --runtime="$dur" \
        --rate="$((mbps * 1024 * 8 / 10))k,$((mbps * 1024 * 2 / 10))k" >/dev/null 2>&1 || sleep 1
    fi
  done
}

loop_replay() { tb_replay "$1" "$STUDY_WORK/trace$1.txt"; }

# --- set-up and tear-down

study_cleanup() {
  local f pid i mnt
  for f in "$STUDY_WORK"/pids/*; do
    [ -f "$f" ] || continue
    pid=$(cat "$f")
    kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
  done
  sleep 1
  for f in "$STUDY_WORK"/pids/*; do
    [ -f "$f" ] || continue
    kill -KILL -- "-$(cat "$f")" 2>/dev/null || true
    rm -f "$f"
  done
  tb_down  # the testbed's own servers (pid files in $TB_STATE), then every braids-* name
  for i in $(seq 1 9); do
    mnt="$STUDY_WORK/disk$i"
    if mountpoint -q "$mnt" 2>/dev/null; then umount "$mnt" || umount -l "$mnt" || true; fi
    [ -d "$CGROUP/braids-m$i" ] && rmdir "$CGROUP/braids-m$i" 2>/dev/null || true
  done
  # loop devices whose backing file is ours
  losetup -a 2>/dev/null | awk -F: -v d="$STUDY_SHM/" 'index($0, d) { print $1 }' | while read -r dev; do
    losetup -d "$dev" || true
  done
  rm -rf "$STUDY_SHM"
}

study_lock() { # one run at a time: a second one would remove the first one's testbed
  exec 9>/tmp/braids-study.lock
  flock -n 9 || usage "another study run is active, or its processes are left over (then: --cleanup)"
}

bg() { # name cmd...: runs "$0 _cmd args" in a new session, remembers its pid
  local name=$1; shift
  setsid "$here/run-study.sh" "$@" >>"$STUDY_WORK/$name.out" 2>&1 &
  echo $! >"$STUDY_WORK/pids/$name"
}

make_trace() { # i: the mirror's rate trace, "seconds Mbit/s", traces concatenated, slowed 4x
  local i=$1 files=() f
  for f in ${TRACE_FILES[$((i - 1))]}; do files+=("$TRACES/$f"); done
  awk -v target="${TARGET_MBIT[$((i - 1))]}" '
    FNR == 1 { base = last } { t[n] = base + $1 * 4; r[n] = $2; sum += $2; n++; last = base + $1 * 4 + 4 }
    END { scale = target / (sum / n); for (k = 0; k < n; k++) { v = r[k] * scale; if (v < 4) v = 4; if (v > 120) v = 120; printf "%.2f %.1f\n", t[k], v } }' \
    "${files[@]}" >"$STUDY_WORK/trace$i.txt"
}

setup_disk() { # i
  local i=$1 dev mm mb
  truncate -s 320M "$STUDY_SHM/disk$i.img"
  dev=$(losetup -f --show "$STUDY_SHM/disk$i.img")
  mkfs.ext4 -q -F -L "braids-d$i" "$dev"
  mkdir -p "$STUDY_WORK/disk$i"
  mount "$dev" "$STUDY_WORK/disk$i"
  for mb in "${SIZES[@]}"; do
    head -c "$((mb * 1000000))" /dev/urandom >"$STUDY_WORK/disk$i/file-${mb}M.bin"
  done
  head -c 64000000 /dev/urandom >"$STUDY_WORK/disk$i/background.dat"
  chmod 755 "$STUDY_WORK/disk$i"; chmod 644 "$STUDY_WORK/disk$i"/*.bin
  sync
  mm=$(lsblk -dno MAJ:MIN "$dev" | tr -d ' ')
  echo "$(basename "$dev")" >"$STUDY_WORK/disk$i.dev"
  mkdir -p "$CGROUP/braids-m$i"
  echo "$mm $((DISK_MBPS * 1000000))" >"$CGROUP/braids-m$i/blkio.throttle.read_bps_device"
  echo "$mm $((DISK_MBPS * 1000000))" >"$CGROUP/braids-m$i/blkio.throttle.write_bps_device"
}

provider_config() { # i
  local i=$1 p="$STUDY_WORK/provider$i"
  mkdir -p "$p"
  cat >"$p/provider.yaml" <<EOF
hostname: mirror$i
url: gsiftp://$(tb_addr "$i"):2811
database: $p/provider.db
poll: 20s
http:
  bind: 127.0.0.1
  port: $((8800 + i))
logs:
  - path: $TB_STATE/gridftp$i/transfer.log
    format: gridftp
probes:
  network:
    interval: ${PROBE_SECONDS}s
    timeout: 10s
    peers:
      - address: $TB_NET.$i.2
        url: http://$(tb_addr "$i")/probe-64k.bin
  disk:
    devices: [$(cat "$STUDY_WORK/disk$i.dev")]
    interval: ${PROBE_SECONDS}s
EOF
}

export_dataset() { # out
  local out=$1 i db dev peer
  mkdir -p "$out"
  for i in $(seq "$MIRRORS"); do
    db="$STUDY_WORK/provider$i/provider.db"
    dev=$(cat "$STUDY_WORK/disk$i.dev")
    peer="$TB_NET.$i.2"
    mkdir -p "$out/m$i"
    gzip -9 -n -c "$TB_STATE/gridftp$i/transfer.log" >"$out/m$i/transfer.log.gz"
    {
      echo "# start (Unix s),bandwidth (B/s),size (B): successful GridFTP reads as stored by braid provider"
      sqlite3 -csv "$db" "SELECT printf('%.6f', start_us / 1e6), printf('%.1f', size * 1e6 / (end_us - start_us)), size
        FROM transfers WHERE operation = 'read' AND result = '226' AND end_us > start_us ORDER BY start_us"
    } >"$out/m$i/transfers.csv"
    series_csv "$db" "network/$peer/bandwidth" "64 KiB probe bandwidth (B/s)" 1 | gzip -9 -n >"$out/m$i/network.csv.gz"
    series_csv "$db" "disk/$dev/util_percent" "disk utilisation (%)" 3 | gzip -9 -n >"$out/m$i/disk_util.csv.gz"
    series_csv "$db" "disk/$dev/mb_per_second" "disk throughput (MB/s, reads + writes)" 4 | gzip -9 -n >"$out/m$i/disk_mbps.csv.gz"
    cp "$STUDY_WORK/trace$i.txt" "$out/m$i/rate-trace.txt"
    { echo "# start (Unix s),seconds,competing iperf3 flows"; cat "$STUDY_WORK/netload$i.csv"; } >"$out/m$i/netload.csv"
    { echo "# start (Unix s),seconds,background fio MB/s"; cat "$STUDY_WORK/diskload$i.csv"; } >"$out/m$i/diskload.csv"
  done
}

series_csv() { # db series title decimals (values rounded to keep the dataset small)
  echo "# time (Unix s),$3: series $2"
  sqlite3 -csv "$1" "SELECT printf('%.3f', time_us / 1e6), printf('%.$4f', value) FROM samples WHERE series = '$2' ORDER BY time_us"
}

run_eval() { # dataset-dir
  local data
  data=$(cd "$1" 2>/dev/null && pwd) || usage "no such dataset directory: $1"
  log "evaluating $data"
  (cd "$repo" && ./mvnw -B -q -o -pl predictors test-compile exec:exec -Dexec.executable=java \
    -Dexec.classpathScope=test \
    "-Dexec.args=-Xmx512m -cp %classpath org.braid.predictors.PredictionStudy $data") \
    || die "evaluation failed"
  cat "$data/table.md"
  if [ -x "$repo/.venv/bin/python" ]; then
    local png="$data/figure9.png"
    # the committed dataset's figure is the one docs/prediction-study.md shows
    [ "$data" = "$repo/predictors/src/test/resources/study" ] && png="$repo/docs/prediction-study/figure9.png"
    mkdir -p "$(dirname "$png")"
    "$repo/.venv/bin/python" "$here/plot.py" "$data" "$png" || log "plot failed"
  else
    log "no $repo/.venv/bin/python (run src/test/bench/install): plot skipped"
  fi
}

study_main() {
  local minutes=60 out="$repo/predictors/src/test/resources/study" seed=8 eval=1
  while [ $# -gt 0 ]; do
    case "$1" in
      --minutes|--out|--seed|--eval-only) [ $# -ge 2 ] || usage "$1 needs a value (see --help)" ;;
    esac
    case "$1" in
      --minutes) minutes=$2; shift 2 ;;
      --out) out=$2; shift 2 ;;
      --seed) seed=$2; shift 2 ;;
      --no-eval) eval=0; shift ;;
      --eval-only) run_eval "$2"; return ;;
      --cleanup) tb_need_root; study_cleanup; return ;;
      -h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; return ;;
      *) usage "unknown option: $1 (see --help)" ;;
    esac
  done
  [[ "$minutes" =~ ^[0-9]+$ ]] && [ "$minutes" -ge 1 ] || usage "--minutes must be a positive integer: $minutes"
  [[ "$seed" =~ ^[0-9]+$ ]] || usage "--seed must be a non-negative integer: $seed"
  [[ "$MIRRORS" =~ ^[1-3]$ ]] || usage "STUDY_MIRRORS must be 1, 2 or 3: $MIRRORS"
  # the run replaces --out at the end: only ever a dataset of an earlier run, or a new directory
  if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ] && [ ! -d "$out/m1" ]; then
    usage "--out $out exists and is not a study dataset (no m1/): give a new or empty directory"
  fi
  tb_need_root
  if [ -z "${STUDY_PRIVATE_NS:-}" ]; then
    bash "$here/install" >&2  # the packages it needs on a fresh machine (a no-op once installed)
    study_lock  # held (fd 9) through the exec below until the run ends
    # The run lives in its own mount namespace: the loop mounts and the namespaces' bind mounts
    # in /run/netns are invisible to other harnesses, and a process another harness starts with
    # `ip netns exec` meanwhile cannot copy our mounts and keep the loop devices busy.
    exec env STUDY_PRIVATE_NS=1 unshare --mount --propagation private "$here/run-study.sh" \
      --minutes "$minutes" --out "$out" --seed "$seed" $([ "$eval" = 1 ] || echo --no-eval)
  fi
  local t
  for t in globus-gridftp-server globus-url-copy iperf3 fio sqlite3 nginx losetup mkfs.ext4 java; do
    command -v "$t" >/dev/null || die "$t is not installed (see docs/prediction-study.md, Setup)"
  done
  [ -d "$CGROUP" ] || die "cgroup v1 blkio controller not mounted at $CGROUP"
  [ -n "$TRACES" ] && [ -d "$TRACES" ] || die "HSDPA traces not found: set STUDY_TRACES"
  study_cleanup
  rm -rf "$STUDY_WORK"
  mkdir -p "$STUDY_WORK/pids" "$STUDY_WORK/www" "$STUDY_SHM"
  chmod 755 "$STUDY_WORK"
  trap 'rc=$?; study_cleanup; exit $rc' EXIT
  trap 'exit 130' INT TERM

  (cd "$repo" && ./braid --help >/dev/null) || die "could not build the braid command"
  head -c 65536 /dev/urandom >"$STUDY_WORK/www/probe-64k.bin"
  local i
  for i in $(seq "$MIRRORS"); do
    setup_disk "$i"
    make_trace "$i"
  done
  local rates=""
  for i in $(seq "$MIRRORS"); do rates+="$(awk 'NR == 1 { print $2 }' "$STUDY_WORK/trace$i.txt") "; done
  tb_up "$STUDY_WORK/www" "$rates" "" 0 1 0
  for i in $(seq "$MIRRORS"); do
    echo "$(cat "$TB_STATE/gridftp$i/pid")" >"$CGROUP/braids-m$i/cgroup.procs"
    ip netns exec "$TB_CLIENT" iperf3 -s -B "$TB_NET.$i.2" -p 5201 >"$STUDY_WORK/iperf-server$i.log" 2>&1 &
    echo $! >"$STUDY_WORK/pids/iperf-server$i"
    provider_config "$i"
    # the provider reads the server's log from the shared file system and runs in the client
    # namespace, so that its 64 KiB probe travels like the GridFTP data: mirror -> client
    BRAID_JAVA_OPTS="-Xmx160m -XX:+UseSerialGC -XX:TieredStopAtLevel=1" \
      setsid ip netns exec "$TB_CLIENT" "$repo/braid" provider serve --config "$STUDY_WORK/provider$i/provider.yaml" \
      >"$STUDY_WORK/provider$i/stdout.log" 2>&1 &
    echo $! >"$STUDY_WORK/pids/provider$i"
  done
  local start deadline
  start=$(date +%s)
  deadline=$((start + minutes * 60))
  log "testbed up ($MIRRORS mirrors, rates now [$rates] Mbit/s); running $minutes min until $(date -u -d "@$deadline" +%H:%M:%S)"
  for i in $(seq "$MIRRORS"); do
    bg "replay$i" _replay "$i"
    bg "netload$i" _netload "$i" "$deadline" $((seed * 100 + i))
    bg "diskload$i" _diskload "$i" "$deadline" $((seed * 100 + 10 + i))
    bg "transfers$i" _transfers "$i" "$deadline" $((seed * 100 + 20 + i))
  done
  while [ "$(date +%s)" -lt "$deadline" ]; do
    sleep 60 &
    wait $! || true  # (a signal interrupts wait at once; the trap then cleans up)
    local n=0
    for i in $(seq "$MIRRORS"); do n=$((n + $(wc -l <"$STUDY_WORK/transfers$i.csv" 2>/dev/null || echo 0))); done
    log "$(( ($(date +%s) - start) / 60 )) min: $n transfers"
  done
  # let running transfers end, then one more provider poll so the last log lines are stored
  for i in $(seq "$MIRRORS"); do
    while kill -0 "$(cat "$STUDY_WORK/pids/transfers$i")" 2>/dev/null; do sleep 2 & wait $! || true; done
  done
  sleep 25 &
  wait $! || true
  for i in $(seq "$MIRRORS"); do
    kill -TERM -- "-$(cat "$STUDY_WORK/pids/provider$i")" 2>/dev/null || true
  done
  sleep 3
  rm -rf "$out"
  export_dataset "$out"
  log "dataset written to $out ($(du -sh "$out" | cut -f1))"
  study_cleanup
  trap - EXIT
  if [ "$eval" = 1 ]; then run_eval "$out"; fi
}

case "${1:-}" in
  _transfers) shift; loop_transfers "$@"; exit ;;
  _netload) shift; loop_netload "$@"; exit ;;
  _diskload) shift; loop_diskload "$@"; exit ;;
  _replay) shift; loop_replay "$@"; exit ;;
  _export) shift; export_dataset "$@"; exit ;;  # again from the stores of the last run
  *) study_main "$@"; exit ;;
esac
