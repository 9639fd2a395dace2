# shellcheck shell=bash
# Runs the braid jar. Sourced by the installed launcher (bin/braid) and by the developer launcher
# (./braid at the top of the source tree), which differ only in where the jar and the cache are.
#
#   braid_exec JAR CACHE_DIR ARGS...    runs JAR with ARGS; never returns
#
# Writes only into CACHE_DIR (empty: nowhere), never beside the jar, and nothing there is needed:
# a cache that cannot be written only makes the start slower.
# Environment: JAVA_HOME (else java from PATH); BRAID_CDS=0 (no class-data sharing);
# BRAID_JAVA_OPTS (more JVM options); BRAID_LOG, BRAID_LOG_WIRE, BRAID_LOG_CONFIG, BRAID_TIMING
# (read by the jar itself; bin/braid sets BRAID_TIMING_T0 for BRAID_TIMING, see docs/download.md).

# The main class, named rather than found with -jar: the JVM then opens the jar (about 10,000
# entries, whose whole central directory it reads, 10-15 ms of interpreted code) only when a class
# is not in the class-data archive or a resource is read, and a download of one file or a dataset
# needs neither (docs/download.md, "Start-up time").
braid_main=org.braid.cli.BraidCli

# The cache directory of the installed launcher: systemd's CacheDirectory= for the service
# (/var/cache/braid), else $XDG_CACHE_HOME/braid, else ~/.cache/braid; empty without a home.
braid_cache_dir() {
  if [ -n "${CACHE_DIRECTORY:-}" ]; then
    braid_cache="${CACHE_DIRECTORY%%:*}"
  elif [ -n "${XDG_CACHE_HOME:-}" ]; then
    braid_cache="$XDG_CACHE_HOME/braid"
  elif [ -n "${HOME:-}" ] && [ "$HOME" != / ]; then
    braid_cache="$HOME/.cache/braid"
  else
    braid_cache=
  fi
}

# Class-data sharing: a static archive of every class a download loads (the JDK's, ours and the
# libraries'), recorded once per jar and JVM from the class lists of a short local demo run
# (127.0.0.1 only) and of `braid get` runs on local files and local mirrors (braid_cds_gets: the
# command line's and the downloads' classes, which the demo does not load), cuts the JVM's start-up
# by about half. A static archive, not a dynamic one (-XX:ArchiveClassesAtExit): JDK 17 leaves
# picocli's Java 5 class files out of dynamic archives, and parsing them costs about 50 ms of every
# start. The archive is named after the jar's path and recorded again when the jar or the java
# binary changes (size, time or inode); a recording that failed is not tried again for the same
# pair, and reported once. Appends to braid_java_opts; never fails.
#
# Every run looks at the files with test's -nt, without starting a process (stat cost 2-5 ms of
# each start): an archive newer than the jar and the java binary, and not marked stale, is used as
# it is. The JVM checks it too (the jar's size and time, its own version) and ignores one that does
# not match, silently: the jar, given the archive's path (braid.cds), then finds sharing off and
# marks it stale ($jsa.stale, ClassDataArchive), so the next run records it again. This catches a
# jar or JVM replaced by an older file (a package keeps its files' times). Anything else (no
# archive, newer files, a marker) takes the slow path: the files' size, time and inode against
# those the archive was recorded for ($jsa.key), and recording when they differ.
braid_cds() {
  local jar=$1 dir=$2 key jsa tmp list
  [ -n "$dir" ] || return 0
  jsa="$dir/${jar//[^A-Za-z0-9._-]/_}.jsa"
  if [ -f "$jsa" ] && [ ! -e "$jsa.stale" ] && [ "$jsa" -nt "$jar" ] \
      && [ "$jsa" -nt "$braid_java_path" ]; then
    braid_cds_use "$jsa"
    return 0
  fi
  key="$(stat -L -c '%n %s %Y %i' -- "$jar" "$braid_java_path" 2>/dev/null)" || return 0
  { [ -d "$dir" ] || mkdir -p -- "$dir" 2>/dev/null; } && [ -w "$dir" ] || return 0
  if [ -f "$jsa" ] && [ ! -e "$jsa.stale" ] && braid_holds "$jsa.key" "$key"; then
    braid_cds_use "$jsa" # the jar or java has a time in the future
    return 0
  fi
  if braid_holds "$jsa.failed" "$key"; then
    return 0
  fi
  if [ -e "$jsa.stale" ] && braid_holds "$jsa.key" "$key"; then
    # the JVM refused an archive recorded for these very files: a JVM updated beside an unchanged
    # java binary (recorded again, once), or options it cannot be used with, such as -Xshare:off
    # in BRAID_JAVA_OPTS (then given up, as a failed recording is)
    if braid_holds "$jsa.again" "$key"; then
      rm -f -- "$jsa" "$jsa.key" "$jsa.stale" "$jsa.again"
      printf '%s\n' "$key" 2>/dev/null >"$jsa.failed" || true
      echo "braid: java does not use the class-data archive recorded in $dir (start-up is slower; see docs/download.md)" >&2
      return 0
    fi
    printf '%s\n' "$key" 2>/dev/null >"$jsa.again" || return 0
  else
    rm -f -- "$jsa.again"
  fi
  tmp="$jsa.$$.tmp"
  list="$jsa.$$.classlist"
  rm -f -- "$jsa.stale"
  if "$braid_java" -XX:DumpLoadedClassList="$list" -cp "$jar" "$braid_main" demo --size 2 --rates 800,400 \
        >/dev/null 2>&1 \
      && braid_cds_gets "$jar" "$jsa.$$.train" "$list" \
      && "$braid_java" -Xshare:dump -XX:SharedClassListFile="$list" -XX:SharedArchiveFile="$tmp" \
        -Xlog:cds=off -Xlog:cds+dynamic=off -cp "$jar" >/dev/null 2>&1 \
      && [ -s "$tmp" ] && mv -f -- "$tmp" "$jsa" 2>/dev/null \
      && printf '%s\n' "$key" 2>/dev/null >"$jsa.key"; then
    rm -f -- "$jsa.failed"
  else
    rm -f -- "$tmp" "$jsa" "$jsa.key"
    printf '%s\n' "$key" 2>/dev/null >"$jsa.failed" || true
    echo "braid: could not record the class-data archive in $dir (start-up is slower; see docs/download.md)" >&2
  fi
  rm -f -- "$list"
  if [ -f "$jsa" ]; then
    braid_cds_use "$jsa"
  fi
}

# Appends the options that map archive $1 (and tell the jar where it is, to mark it stale).
braid_cds_use() {
  braid_java_opts+=("-XX:SharedArchiveFile=$1" -Xlog:cds=off -Xlog:cds+dynamic=off "-Dbraid.cds=$1")
}

# Appends to class list $3 the classes of `braid get` (jar $1) of one local file, of a local
# dataset listed with -r, of one read from an input list (-i, with checksums: the list reader is
# most of a dataset's start-up) and of one over HTTP from mirrors on 127.0.0.1, made in directory
# $2 and removed after; the runs read and write only there. Fails only when the class list cannot
# be written.
braid_cds_gets() {
  local jar=$1 dir=$2 list=$3 more="$2/classlist" block
  mkdir -p -- "$dir/src/sub" || return 0
  printf -v block '%*s' 65536 ''
  printf '%s' "$block$block$block$block" >"$dir/src/f" && printf '%s' "$block" >"$dir/src/sub/g" || {
    rm -rf -- "$dir"; return 0; }
  # the first with BRAID_TIMING=1, as the benchmarks run braid: its milestones' classes (and the
  # management classes a short run loads at exit to learn the JVM's start) come from the archive;
  # and with braid's debug log (to /dev/null): without it the first line logged (BRAID_LOG=debug,
  # the benchmarks' BENCH_BRAID_LOG) loaded logback's event and slf4j's formatter from the jar,
  # which the JVM then opened: 20-40 ms on a loaded machine, in the middle of the download
  (cd -- "$dir" && BRAID_TIMING=1 BRAID_LOG=warn,org.braid=debug "$braid_java" \
    -XX:DumpLoadedClassList="$more.1" -cp "$jar" \
    "$braid_main" get src/f -o out --no-journal --json && "$braid_java" \
    -XX:DumpLoadedClassList="$more.2" -cp "$jar" "$braid_main" get -d outdir -r src/ --no-journal) \
    >/dev/null 2>&1 || true
  # the list names the two files by absolute file: URL (a directory whose path needs escaping in a
  # URL is not trained this way); the digests are those of 262,144 and 65,536 spaces
  if [[ "$dir" == /* && "$dir" != *[!A-Za-z0-9/._-]* ]]; then
    printf 'file://%s/src/f\n  out=a/f\n  checksum=sha-256=%s\nfile://%s/src/sub/g\n  out=b/g\n  checksum=sha-256=%s\n' \
      "$dir" 4faefc17489e430dbbf53d9bda451d56f07a1bd65bef805d73057e2575cf79ea \
      "$dir" 0beca823b527427c6f6abccba22309ee6137100421b0037578e4521d5f2b7302 >"$dir/list" \
      && (cd -- "$dir" && "$braid_java" -XX:DumpLoadedClassList="$more.3" -cp "$jar" "$braid_main" \
        get -i list -d outlist --no-journal --json) >/dev/null 2>&1 || true
  fi
  # and a dataset over HTTP from local mirrors on 127.0.0.1 (org.braid.cli.CdsTraining): the job's
  # HTTP path, its client's lambdas and the batch plan's discovery, which the runs above do not load
  mkdir -p -- "$dir/http" && "$braid_java" -XX:DumpLoadedClassList="$more.4" -cp "$jar" \
    org.braid.cli.CdsTraining "$dir/http" >/dev/null 2>&1 || true
  local f status=0
  for f in "$more.1" "$more.2" "$more.3" "$more.4"; do
    if [ -s "$f" ]; then
      cat -- "$f" >>"$list" || status=1
    fi
  done
  rm -rf -- "$dir"
  return $status
}

# Whether file $1 holds exactly the line $2 (read without starting a process).
braid_holds() {
  local text=
  [ -f "$1" ] || return 1
  IFS= read -r -d '' text <"$1" || true
  [ "$text" = "$2"$'\n' ]
}

braid_exec() {
  local jar=$1 cache=$2
  shift 2
  braid_java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
  # the java binary's path, found without a subshell (a few ms of every start): bash's hash table
  braid_java_path=
  if [[ "$braid_java" == */* ]]; then
    [ -x "$braid_java" ] && [ ! -d "$braid_java" ] && braid_java_path="$braid_java"
  elif hash java 2>/dev/null; then
    braid_java_path="${BASH_CMDS[java]:-}"
  fi
  if [ -z "$braid_java_path" ]; then
    echo "braid: $braid_java not found: install Java 17 or newer, or set JAVA_HOME" >&2
    exit 1
  fi
  # no hsperfdata file: the JVM would make one in /tmp at every start (scanning the directory for
  # those of dead processes), write its counters into it through a shared mapping (a write can
  # wait for the disk's writeback, which a download of gigabytes keeps busy) and remove it at exit;
  # jps and jstat do not see braid then, jcmd PID still works
  braid_java_opts=(-XX:-UsePerfData)
  if [ "${BRAID_CDS:-1}" != 0 ]; then
    braid_cds "$jar" "$cache"
  fi
  if [ -n "${BRAID_JAVA_OPTS:-}" ]; then
    local extra
    read -r -a extra <<<"$BRAID_JAVA_OPTS"
    braid_java_opts+=("${extra[@]}")
  fi
  exec "$braid_java" ${braid_java_opts[@]+"${braid_java_opts[@]}"} -cp "$jar" "$braid_main" "$@"
}
