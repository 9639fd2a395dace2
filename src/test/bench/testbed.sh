#!/usr/bin/env bash
# WAN testbed for the Braid benchmarks (issues 7 and 17). Root only.
#
# Builds, on one Linux machine, N mirror hosts as network namespaces with a veth link each to a
# client namespace, shapes every mirror's outgoing link with `tc ... tbf` (netem is not available
# here), can delay every mirror's packets at the client's ingress by its own round-trip time (a
# userspace delay line fed by iptables NFQUEUE, delayline/delayline.c), runs a real nginx (and optionally a real anonymous globus-gridftp-server and a real
# xrootd server) in each
# mirror, and can put some mirrors behind a router namespace whose uplink to the client is one
# shaped link (a shared bottleneck, paper 003 Figure 17). Link rates can be changed during a run
# by replaying a trace of rates (paper 000, section 3.1: set the capacity with tc, sleep until
# the next sample, repeat).
#
# Everything it creates is named with the prefix "braidb-" (by default); addresses are $TB_NET.x.y (10.231.x.y by default) and exist
# only inside those namespaces. Nothing is routed to the root namespace. Another harness can run
# a second testbed at the same time with its own prefix and network: TB_PREFIX=braids-
# TB_NET=10.232 (the prefix must end in "-" and be at most 7 characters, as interface names are
# limited to 15; cleanup removes only names with this testbed's prefix).
#
# Usage (as a command; the harness sources this file and calls the tb_* functions instead):
#   testbed.sh up --www DIR --rates "80 40 20 10" [--delays "20 50 80 120"] [--shared "1 2" --uplink MBIT]
#                [--gridftp] [--xrootd]
#   testbed.sh up --www DIR --local N   N unshaped nginx mirrors on 127.0.0.1:8081.. inside the client
#   testbed.sh rate I MBIT          change mirror I's link rate (I counts from 1)
#   testbed.sh delay I MS           change mirror I's round-trip time (starts the delay line if needed)
#   testbed.sh delay-stats          the delay line's per-mirror counters and CPU time
#   testbed.sh replay I TRACE       replay a trace ("seconds Mbit/s" per line) on mirror I's link
#   testbed.sh sent                 bytes sent so far by all mirror links (tc counters)
#   testbed.sh stop-mirror I | start-mirror I    stop or restart mirror I's nginx
#   testbed.sh exec CMD...          run CMD in the client namespace
#   testbed.sh down                 remove this testbed (also done by --cleanup)
#   testbed.sh --cleanup            remove every leftover namespace, interface and process named $TB_PREFIX*
#
# Mirror I serves http://$TB_NET.I.1/<file> (and gsiftp://$TB_NET.I.1:2811/<file> with --gridftp,
# root://$TB_NET.I.1:1094/<file> with --xrootd)
# from DIR; the client is namespace ${TB_PREFIX}c. With --local, mirror I serves
# http://127.0.0.1:$((8080 + I))/<file> inside the client namespace (no link, no shaping).
#
# Round-trip time: every packet from mirror I is queued at the client's ingress (iptables -t raw
# PREROUTING -s $TB_NET.I.1 -j NFQUEUE --queue-num I) and released by the delay line I's delay
# later; the whole round-trip time is applied in that one direction (mirror to client), the
# client's packets to the mirrors are not delayed. The delay line is built with gcc from
# delayline/delayline.c into $TB_DELAYLINE_BIN (/tmp/${TB_PREFIX}delayline/ by default).

set -euo pipefail

TB_PREFIX=${TB_PREFIX:-braidb-}
TB_NET=${TB_NET:-10.231}
[[ "$TB_PREFIX" =~ ^[a-z][a-z0-9]{0,5}-$ ]] || { echo "testbed: TB_PREFIX must be 1-6 lower-case letters or digits and a '-': '$TB_PREFIX'" >&2; exit 2; }
[[ "$TB_NET" =~ ^10\.[0-9]{1,3}$ ]] || { echo "testbed: TB_NET must look like 10.N: '$TB_NET'" >&2; exit 2; }
TB_CLIENT=${TB_PREFIX}c
TB_ROUTER=${TB_PREFIX}r
TB_STATE=${TB_STATE:-/tmp/${TB_PREFIX}state}
TB_BURST=${TB_BURST:-64kb}
TB_LATENCY=${TB_LATENCY:-50ms}
TB_TCP_MEM_MAX=${TB_TCP_MEM_MAX:-67108864}  # tcp_rmem/tcp_wmem maximum in every namespace
TB_DELAYLINE_BIN=${TB_DELAYLINE_BIN:-/tmp/${TB_PREFIX}delayline/delayline}
TB_DELAYLINE_OPTS=${TB_DELAYLINE_OPTS:-}  # e.g. "--slice 0" (see delayline/delayline.c)
TB_LOCAL_PORT=8080
tb_here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

tb_log() { echo "testbed: $*" >&2; }
tb_die() { echo "testbed: $*" >&2; exit 1; }

tb_need_root() {
  [ "$(id -u)" -eq 0 ] || tb_die "must run as root (network namespaces and tc)"
  command -v ip >/dev/null || tb_die "ip (iproute2) is not installed"
  command -v tc >/dev/null || tb_die "tc (iproute2) is not installed"
}

# The device whose egress carries mirror I's data towards the client, and its namespace.
tb_dev() { echo "${TB_PREFIX}m$1s"; }
tb_ns() { echo "${TB_PREFIX}m$1"; }
tb_addr() { echo "$TB_NET.$1.1"; }

tb_tbf() { # ns dev mbit add|change
  local ns=$1 dev=$2 mbit=$3 op=${4:-add}
  ip netns exec "$ns" tc qdisc "$op" dev "$dev" root tbf rate "${mbit}mbit" burst "$TB_BURST" latency "$TB_LATENCY"
}

# A veth pair. A veth delivers a packet on the CPU that sent it, into that CPU's backlog: two
# packets of one link sent from two CPUs can overtake each other (6 downloads of 20 MB counted
# up to 1284 out-of-order segments at the client). Receive packet steering of both ends to one
# CPU (CPU, modulo the CPU count) keeps each link first-in first-out, like a wire.
tb_veth() { # name-in-a ns-a name-in-b ns-b cpu
  ip link add "$1" type veth peer name "$3"
  ip link set "$1" netns "$2"
  ip link set "$3" netns "$4"
  ip netns exec "$2" ip link set "$1" up
  ip netns exec "$4" ip link set "$3" up
  local mask; mask=$(printf %x $((1 << (${5:-0} % $(nproc)))))
  tb_rps "$2" "$1" "$mask"
  tb_rps "$4" "$3" "$mask"
}

tb_rps() { # ns dev hex-cpu-mask
  ip netns exec "$1" sh -c 'for q in /sys/class/net/$0/queues/rx-*/rps_cpus; do echo $1 >$q; done' "$2" "$3" \
    || tb_log "cannot set receive packet steering on $2 (packets of a link may be reordered)"
}

# A namespace; its TCP buffers may grow to TB_TCP_MEM_MAX (64 MiB): the bandwidth-delay product
# of 100 Mbit/s at 200 ms is 2.5 MB, and BBR keeps up to twice that in flight (the default
# tcp_wmem maximum is 4 MiB).
tb_netns() {
  ip netns add "$1"
  ip netns exec "$1" ip link set lo up
  ip netns exec "$1" sysctl -q -w net.ipv4.tcp_rmem="4096 131072 $TB_TCP_MEM_MAX" \
    net.ipv4.tcp_wmem="4096 16384 $TB_TCP_MEM_MAX"
}

# tb_up WWW "rates" "shared mirror indices" uplink-mbit gridftp(0|1) xrootd(0|1) ["delays in ms"]
# Without delays (or all of them 0) no delay line runs: the round-trip time is the veth's.
tb_up() {
  local www=$1 rates=$2 shared=${3:-} uplink=${4:-0} gridftp=${5:-0} xrootd=${6:-0} delays=${7:-}
  tb_need_root
  [ -d "$www" ] || tb_die "--www: no such directory: $www"
  local d n=0 r
  for r in $rates; do
    [[ "$r" =~ ^[0-9]+(\.[0-9]+)?$ ]] && [ "$r" != 0 ] || tb_die "--rates: not a positive Mbit/s figure: '$r'"
    n=$((n + 1))
  done
  [ "$n" -gt 0 ] || tb_die "--rates: no mirror"
  [ "$(wc -w <<<"$delays")" -le "$n" ] || tb_die "--delays: more delays than mirrors: '$delays'"
  for d in $delays; do tb_check_ms "$d" --delays; done
  tb_fresh_state "$www"
  echo "$rates" >"$TB_STATE/rates"
  echo "$gridftp" >"$TB_STATE/gridftp"
  echo "$xrootd" >"$TB_STATE/xrootd"
  tb_netns "$TB_CLIENT"
  if [ -n "$shared" ]; then
    [ "$uplink" != 0 ] || tb_die "--shared needs --uplink MBIT"
    tb_netns "$TB_ROUTER"
    ip netns exec "$TB_ROUTER" sysctl -q -w net.ipv4.ip_forward=1
    tb_veth "${TB_PREFIX}ru" "$TB_ROUTER" "${TB_PREFIX}rc" "$TB_CLIENT" 0
    ip netns exec "$TB_ROUTER" ip addr add $TB_NET.200.1/30 dev "${TB_PREFIX}ru"
    ip netns exec "$TB_CLIENT" ip addr add $TB_NET.200.2/30 dev "${TB_PREFIX}rc"
    tb_tbf "$TB_ROUTER" "${TB_PREFIX}ru" "$uplink"
    echo "$uplink" >"$TB_STATE/uplink"
  fi
  local i=0 r
  for r in $rates; do
    i=$((i + 1))
    local ns; ns=$(tb_ns $i)
    tb_netns "$ns"
    if [[ " $shared " == *" $i "* ]]; then
      tb_veth "$(tb_dev $i)" "$ns" "${TB_PREFIX}m${i}r" "$TB_ROUTER" $((i - 1))
      ip netns exec "$ns" ip addr add "$TB_NET.$i.1/30" dev "$(tb_dev $i)"
      ip netns exec "$TB_ROUTER" ip addr add "$TB_NET.$i.2/30" dev "${TB_PREFIX}m${i}r"
      ip netns exec "$ns" ip route add default via "$TB_NET.$i.2"
      ip netns exec "$TB_CLIENT" ip route add "$TB_NET.$i.0/30" via $TB_NET.200.1
    else
      tb_veth "$(tb_dev $i)" "$ns" "${TB_PREFIX}m${i}c" "$TB_CLIENT" $((i - 1))
      ip netns exec "$ns" ip addr add "$TB_NET.$i.1/30" dev "$(tb_dev $i)"
      ip netns exec "$TB_CLIENT" ip addr add "$TB_NET.$i.2/30" dev "${TB_PREFIX}m${i}c"
    fi
    tb_tbf "$ns" "$(tb_dev $i)" "$r"
    tb_start_mirror $i
  done
  echo "$i" >"$TB_STATE/n"
  if [ -n "$(tr -d ' 0.' <<<"$delays")" ]; then
    tb_delay_start "$delays"
  fi
  tb_log "up: $i mirrors at [$rates] Mbit/s${shared:+, mirrors [$shared] behind a $uplink Mbit/s uplink}${delays:+, round-trip times [$delays] ms}"
}

tb_fresh_state() { # www
  if ip netns list | grep -q "^${TB_PREFIX}"; then
    tb_die "a testbed is already up (run: $0 --cleanup)"
  fi
  rm -rf "$TB_STATE"
  mkdir -p "$TB_STATE"
  echo "$1" >"$TB_STATE/www"
}

# tb_up_local WWW N: N nginx mirrors on 127.0.0.1:8081.. inside the client namespace, unshaped
# (loopback at memory speed); no link, no delay, no GridFTP or XRootD.
tb_up_local() {
  local www=$1 n=$2 i
  tb_need_root
  [ -d "$www" ] || tb_die "--www: no such directory: $www"
  [[ "$n" =~ ^[1-9]$ ]] || tb_die "--local: expected 1-9 mirrors: '$n'"
  tb_fresh_state "$www"
  echo 1 >"$TB_STATE/local"
  echo "$n" >"$TB_STATE/n"
  tb_netns "$TB_CLIENT"
  for i in $(seq "$n"); do tb_start_mirror "$i"; done
  tb_log "up: $n local mirrors on 127.0.0.1:$((TB_LOCAL_PORT + 1))-$((TB_LOCAL_PORT + n)) in $TB_CLIENT"
}

tb_is_local() { [ "$(cat "$TB_STATE/local" 2>/dev/null || echo 0)" = 1 ]; }

tb_check_ms() { # value what
  [[ "$1" =~ ^[0-9]+(\.[0-9]+)?$ ]] && awk -v d="$1" 'BEGIN { exit !(d <= 60000) }' \
    || tb_die "$2: not a delay of 0-60000 ms: '$1'"
}

tb_nginx_conf() { # i
  local i=$1 p="$TB_STATE/nginx$1"
  mkdir -p "$p/tmp"
  cat >"$p/nginx.conf" <<EOF
user root;
worker_processes 1;
pid $p/nginx.pid;
error_log $p/error.log;
events { worker_connections 256; }
http {
  access_log $p/access.log;
  client_body_temp_path $p/tmp/body;
  proxy_temp_path $p/tmp/proxy;
  fastcgi_temp_path $p/tmp/fastcgi;
  uwsgi_temp_path $p/tmp/uwsgi;
  scgi_temp_path $p/tmp/scgi;
  sendfile on;
  keepalive_requests 100000;
  server {
    listen $(tb_listen $i);
    root $(cat "$TB_STATE/www");
  }
}
EOF
}

tb_wait_port() { # ns addr port
  local k
  for k in $(seq 100); do
    if ip netns exec "$1" bash -c "exec 3<>/dev/tcp/$2/$3" 2>/dev/null; then return 0; fi
    sleep 0.05
  done
  return 1
}

tb_listen() { # i -> the address:port mirror I's nginx listens on
  if tb_is_local; then echo "127.0.0.1:$((TB_LOCAL_PORT + $1))"; else echo "$(tb_addr "$1"):80"; fi
}

tb_start_mirror() { # i
  local i=$1 ns; ns=$(tb_ns "$1")
  local p="$TB_STATE/nginx$i"
  tb_is_local && ns=$TB_CLIENT
  tb_nginx_conf "$i"
  ip netns exec "$ns" /usr/sbin/nginx -p "$p" -c "$p/nginx.conf" -e "$p/error.log" -g 'daemon off;' \
    >"$p/stdout.log" 2>&1 &
  echo $! >"$p/master.pid"
  disown $!  # a mirror killed on purpose is no news for the calling shell
  local l; l=$(tb_listen "$i")
  tb_wait_port "$ns" "${l%:*}" "${l##*:}" || tb_die "nginx in $ns did not start: $(cat "$p/error.log" "$p/stdout.log" 2>/dev/null)"
  if [ "$(cat "$TB_STATE/gridftp" 2>/dev/null || echo 0)" = 1 ]; then
    local g="$TB_STATE/gridftp$i"
    mkdir -p "$g"
    # globus-gridftp-server looks its own address up by name; there is no DNS in the namespace,
    # so give it a hosts file (ip netns exec bind-mounts /etc/netns/NS/hosts over /etc/hosts)
    mkdir -p "/etc/netns/$ns"
    printf '127.0.0.1 localhost\n%s %s %s\n' "$(tb_addr $i)" "$ns" "$(hostname)" >"/etc/netns/$ns/hosts"
    ip netns exec "$ns" globus-gridftp-server -aa -anonymous-user nobody -p 2811 \
      -control-interface "$(tb_addr $i)" -data-interface "$(tb_addr $i)" \
      -d error -l "$g/server.log" -Z "$g/transfer.log" >"$g/stdout.log" 2>&1 &
    echo $! >"$g/pid"
    disown $!
    tb_wait_port "$ns" "$(tb_addr $i)" 2811 || tb_die "globus-gridftp-server in $ns did not start: $(cat "$g"/*.log 2>/dev/null)"
  fi
  if [ "$(cat "$TB_STATE/xrootd" 2>/dev/null || echo 0)" = 1 ]; then
    local x="$TB_STATE/xrootd$i"
    mkdir -p "$x"
    chmod 777 "$x"  # xrootd refuses to run as root: it runs as nobody (-R) and writes here
    printf 'all.export %s
xrd.port 1094
xrd.network nodnr
all.adminpath %s
all.pidpath %s
' \
      "$(cat "$TB_STATE/www")" "$x" "$x" >"$x/xrootd.cfg"
    ip netns exec "$ns" xrootd -R nobody -c "$x/xrootd.cfg" -l "$x/xrootd.log" -n "m$i" \
      >"$x/stdout.log" 2>&1 &
    echo $! >"$x/pid"
    disown $!
    tb_wait_port "$ns" "$(tb_addr $i)" 1094 || tb_die "xrootd in $ns did not start: $(cat "$x"/*.log 2>/dev/null)"
  fi
}

tb_stop_mirror() { # i: the mirror fails: every process in its namespace (nginx master and
  # workers, the GridFTP server and its per-session children) is killed; open connections reset
  local ns pid k; ns=$(tb_ns "$1")
  if tb_is_local; then  # the client's namespace: only this mirror's nginx, master and workers
    local m; m=$(cat "$TB_STATE/nginx$1/master.pid" 2>/dev/null || true)
    if [ -n "$m" ]; then
      kill -STOP "$m" 2>/dev/null || true  # no new worker while the workers are killed
      for pid in $(pgrep -P "$m" || true); do kill -KILL "$pid" 2>/dev/null || true; done
      kill -KILL "$m" 2>/dev/null || true
    fi
    rm -f "$TB_STATE/nginx$1/master.pid"
    return 0
  fi
  for pid in $(ip netns pids "$ns" 2>/dev/null || true); do kill -KILL "$pid" 2>/dev/null || true; done
  for k in $(seq 100); do
    [ -z "$(ip netns pids "$ns" 2>/dev/null || true)" ] && break
    sleep 0.05
  done
  rm -f "$TB_STATE/nginx$1/master.pid" "$TB_STATE/gridftp$1/pid" "$TB_STATE/xrootd$1/pid"
}

tb_rate() {
  tb_is_local && tb_die "rate: local mirrors are not shaped"
  tb_tbf "$(tb_ns "$1")" "$(tb_dev "$1")" "$2" change
}

# --- round-trip time: the delay line (delayline/delayline.c) in the client namespace

tb_iptables() { # args: iptables in the client namespace (the legacy back end when installed:
  # this kernel has the xtables NFQUEUE target but no nftables queue expression)
  local ipt=iptables
  command -v iptables-legacy >/dev/null && ipt=iptables-legacy
  ip netns exec "$TB_CLIENT" "$ipt" "$@"
}

tb_delayline_build() { # compiles the delay line when the binary is missing or older than its source
  local src="$tb_here/delayline/delayline.c" bin=$TB_DELAYLINE_BIN
  if [ -x "$bin" ] && [ ! "$src" -nt "$bin" ]; then return 0; fi
  command -v gcc >/dev/null || tb_die "gcc is not installed (run src/test/bench/install)"
  [ -f /usr/include/libnetfilter_queue/libnetfilter_queue.h ] \
    || tb_die "libnetfilter-queue-dev is not installed (run src/test/bench/install)"
  command -v iptables >/dev/null || tb_die "iptables is not installed (run src/test/bench/install)"
  mkdir -p "$(dirname "$bin")"
  gcc -O2 -Wall -Wextra -Werror -o "$bin.$$" "$src" -lnetfilter_queue || tb_die "cannot build $src"
  mv "$bin.$$" "$bin"
}

tb_delay_running() {
  local p; p=$(cat "$TB_STATE/delayline.pid" 2>/dev/null) && kill -0 "$p" 2>/dev/null
}

tb_delay_ok() { [ ! -f "$TB_STATE/delayline.pid" ] || tb_delay_running; }  # not started, or alive

# Starts the delay line with one delay per mirror (missing ones are 0) and queues every mirror's
# packets to it. It runs at real-time priority (SCHED_FIFO) so the benchmark's own processes
# cannot hold a due packet back.
tb_delay_start() { # "ms per mirror"
  local n i d k; n=$(cat "$TB_STATE/n")
  tb_is_local && tb_die "delay: local mirrors have no link to delay"
  tb_delay_running && tb_die "delay line already running"
  tb_delayline_build
  local -a ds; read -r -a ds <<<"$1"
  for i in $(seq "$n"); do echo "$i ${ds[$((i - 1))]:-0}"; done >"$TB_STATE/delays"
  rm -f "$TB_STATE/delayline.ready"
  local -a rt=(chrt -f 20)
  chrt -f 20 true 2>/dev/null || rt=()
  # shellcheck disable=SC2086
  ip netns exec "$TB_CLIENT" ${rt[@]+"${rt[@]}"} "$TB_DELAYLINE_BIN" $TB_DELAYLINE_OPTS --ready "$TB_STATE/delayline.ready" \
    "$TB_STATE/delays" >/dev/null 2>>"$TB_STATE/delayline.log" &
  echo $! >"$TB_STATE/delayline.pid"
  for k in $(seq 100); do [ -f "$TB_STATE/delayline.ready" ] && break; sleep 0.05; done
  tb_delay_running && [ -f "$TB_STATE/delayline.ready" ] \
    || tb_die "the delay line did not start: $(cat "$TB_STATE/delayline.log")"
  for i in $(seq "$n"); do
    tb_iptables -t raw -A PREROUTING -s "$(tb_addr "$i")/32" -j NFQUEUE --queue-num "$i" \
      || tb_die "iptables: cannot queue mirror $i's packets (raw table, NFQUEUE target)"
  done
}

tb_delay() { # i ms: mirror I's round-trip time from now on
  [ -f "$TB_STATE/n" ] || tb_die "delay: no testbed is up ($TB_STATE)"
  local i=$1 ms=$2 n; n=$(cat "$TB_STATE/n")
  [[ "$i" =~ ^[0-9]+$ ]] && [ "$i" -ge 1 ] && [ "$i" -le "$n" ] || tb_die "delay: no mirror '$i' (1-$n)"
  tb_check_ms "$ms" delay
  tb_delay_running || tb_delay_start ""
  awk -v i="$i" -v ms="$ms" '$1 == i { $2 = ms } { print }' "$TB_STATE/delays" >"$TB_STATE/delays.new"
  mv "$TB_STATE/delays.new" "$TB_STATE/delays"
  kill -HUP "$(cat "$TB_STATE/delayline.pid")"
}

tb_delay_stats() { # prints the delay line's counters (one line per mirror, then its CPU time)
  tb_delay_running || tb_die "no delay line is running"
  local before; before=$(wc -l <"$TB_STATE/delayline.log")
  kill -USR1 "$(cat "$TB_STATE/delayline.pid")"
  local k n; n=$(cat "$TB_STATE/n")
  for k in $(seq 100); do
    [ "$(($(wc -l <"$TB_STATE/delayline.log") - before))" -ge $((n + 1)) ] && break
    sleep 0.02
  done
  tail -n +"$((before + 1))" "$TB_STATE/delayline.log"
}

tb_delay_stop() { # stops the delay line (its last counters go to $TB_STATE/delayline.log)
  tb_delay_running || return 0
  tb_iptables -t raw -F PREROUTING 2>/dev/null || true  # nothing is queued to a stopped line
  local p k; p=$(cat "$TB_STATE/delayline.pid")
  kill -TERM "$p" 2>/dev/null || true
  for k in $(seq 40); do kill -0 "$p" 2>/dev/null || break; sleep 0.05; done
  rm -f "$TB_STATE/delayline.pid"
}

# Replays a trace on mirror I's link: each line "seconds Mbit/s", seconds counted from the call.
tb_replay() { # i trace
  local i=$1 trace=$2 t r start now
  start=$(date +%s.%N)
  while read -r t r; do
    [[ "$t" =~ ^[0-9.]+$ ]] || continue
    now=$(date +%s.%N)
    local wait; wait=$(awk -v s="$start" -v n="$now" -v t="$t" 'BEGIN { w = s + t - n; print (w > 0 ? w : 0) }')
    sleep "$wait"
    tb_rate "$i" "$r"
  done <"$trace"
}

tb_sent() { # total bytes sent by every mirror's shaped link
  local n i total=0 b
  n=$(cat "$TB_STATE/n")
  for i in $(seq "$n"); do
    b=$(ip netns exec "$(tb_ns $i)" tc -s qdisc show dev "$(tb_dev $i)" | awk '/Sent/ { print $2; exit }')
    total=$((total + ${b:-0}))
  done
  echo "$total"
}

tb_exec() { ip netns exec "$TB_CLIENT" "$@"; }

tb_down() {
  local f
  tb_delay_stop
  for f in "$TB_STATE"/nginx*/master.pid "$TB_STATE"/gridftp*/pid "$TB_STATE"/xrootd*/pid; do
    [ -f "$f" ] && kill -TERM "$(cat "$f")" 2>/dev/null || true
  done
  tb_cleanup
}

# Removes everything named $TB_PREFIX*: processes inside those namespaces, then the namespaces (their
# veth ends go with them), then any veth left in the root namespace by an interrupted setup.
tb_cleanup() {
  local ns pid dev
  for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep "^${TB_PREFIX}" || true); do
    for pid in $(ip netns pids "$ns" 2>/dev/null || true); do
      kill -TERM "$pid" 2>/dev/null || true
    done
  done
  sleep 0.2
  for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep "^${TB_PREFIX}" || true); do
    for pid in $(ip netns pids "$ns" 2>/dev/null || true); do
      kill -KILL "$pid" 2>/dev/null || true
    done
    ip netns del "$ns" 2>/dev/null || true
  done
  rm -rf /etc/netns/"${TB_PREFIX}"*
  for dev in $(ip -o link show 2>/dev/null | awk -F': ' '{print $2}' | sed 's/@.*//' | grep "^${TB_PREFIX}" || true); do
    ip link del "$dev" 2>/dev/null || true
  done
}

tb_main() {
  local cmd=${1:-}
  shift || true
  case "$cmd" in
    up)
      local www="" rates="" shared="" uplink=0 gridftp=0 xrootd=0 delays="" local=""
      while [ $# -gt 0 ]; do
        [ $# -ge 2 ] || [[ "$1" == --gridftp || "$1" == --xrootd ]] || tb_die "up: $1 needs a value"
        case "$1" in
          --www) www=$2; shift 2 ;;
          --rates) rates=$2; shift 2 ;;
          --delays) delays=$2; shift 2 ;;
          --local) local=$2; shift 2 ;;
          --shared) shared=$2; shift 2 ;;
          --uplink) uplink=$2; shift 2 ;;
          --gridftp) gridftp=1; shift ;;
          --xrootd) xrootd=1; shift ;;
          *) tb_die "up: unknown option: $1" ;;
        esac
      done
      trap 'rc=$?; [ $rc = 0 ] || tb_cleanup; exit $rc' EXIT  # a half-built testbed is removed
      if [ -n "$local" ]; then
        [ -n "$www" ] && [ -z "$rates$delays$shared" ] && [ "$gridftp$xrootd" = 00 ] \
          || tb_die "up --local N takes only --www DIR"
        tb_up_local "$www" "$local"
      else
        [ -n "$www" ] && [ -n "$rates" ] || tb_die "up needs --www DIR and --rates \"MBIT...\""
        tb_up "$www" "$rates" "$shared" "$uplink" "$gridftp" "$xrootd" "$delays"
      fi ;;
    rate) tb_need_root; tb_rate "$1" "$2" ;;
    delay) tb_need_root; [ $# = 2 ] || tb_die "usage: delay I MS"; tb_delay "$1" "$2" ;;
    delay-stats) tb_need_root; tb_delay_stats ;;
    replay) tb_need_root; tb_replay "$1" "$2" ;;
    sent) tb_need_root; tb_sent ;;
    stop-mirror) tb_need_root; tb_stop_mirror "$1" ;;
    start-mirror) tb_need_root; tb_start_mirror "$1" ;;
    exec) tb_need_root; tb_exec "$@" ;;
    down) tb_need_root; tb_down ;;
    --cleanup|cleanup) tb_need_root; tb_cleanup ;;
    *) sed -n '2,/^$/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
  esac
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  tb_main "$@"
fi
