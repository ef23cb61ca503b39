#!/usr/bin/env bash
# Sirocco against its anchors, in one run: Cyclone DDS's ddsperf (over UDP loopback), the raw floors (a Java TCP, UDP
# and shared-memory ping-pong with no middleware, bench/RawPingPong.java; memcpy, bench/MemcpyFloor.java) and Sirocco's
# ping and pub over shm and tcp, at the same sizes, interleaved run by run, N repeats. Prints one markdown table of
# medians and same-run ratios against the goals of issue 22, and plots the latency percentile distributions.
#
#   bench/compare.sh [--quick] [--repeats N] [--sizes "64 1024 65536"] [--hog] [--out DIR]
#
#   --quick      1 repeat, short runs: for testing the script, not for figures
#   --repeats N  rounds of every run (default 5); medians and ratios are over the rounds
#   --hog        also the 64 B tcp ping and its raw floor with two `nice -n 19` busy loops running (issue 22's
#                "also with a CPU hog running")
#   --out DIR    where the raw logs (raw/), percentile files (hist/), runs.jsonl, table.md, table.json and the
#                plots (latency-shm.svg, latency-tcp.svg) go (default /tmp/sirocco-compare-<time>)
#
# All traffic stays on loopback (SIROCCO_DDS_INTERFACE=lo; ddsperf is confined to lo by bench/ddsperf-baseline.sh).
# Every process runs under `timeout`; on exit or interrupt the running one is killed with its children (its process
# group) and the run's shm directory is removed. Run it on a quiet machine: the table records the load average.
set -u
cd "$(dirname "$0")/.."
. .mvn/find-jdk25.sh
sirocco_find_jdk25 || exit 1

usage() { sed -n '6,14p' "$0" | sed 's/^# \{0,1\}//' >&2; exit "${1:-2}"; }
REPEATS=5 QUICK=0 SIZES="64 1024 65536" OUT="" HOG=0
while [ $# -gt 0 ]; do
  case $1 in
    --quick) QUICK=1; REPEATS=1 ;;
    --hog) HOG=1 ;;
    --repeats) [ $# -ge 2 ] && [[ $2 =~ ^[1-9][0-9]*$ ]] || usage; REPEATS=$2; shift ;;
    --sizes) [ $# -ge 2 ] && [[ $2 =~ ^[0-9\ ]+$ ]] || usage; SIZES=$2; shift ;;
    --out) [ $# -ge 2 ] || usage; OUT=$2; shift ;;
    -h|--help) usage 0 ;;
    *) echo "compare.sh: unknown option $1" >&2; usage ;;
  esac
  shift
done
OUT=${OUT:-/tmp/sirocco-compare-$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$OUT/raw" "$OUT/hist" || exit 1
RUNS="$OUT/runs.jsonl"
: > "$RUNS"

# Durations (seconds): Sirocco measures after its own warm-up; ddsperf drops its first second; the raw floors warm up
# for one second.
if [ "$QUICK" = 1 ]; then
  PING_S=2 PING_WARM=1 PUB_S=2 DDSPERF_S=3 RAW_S=1 MEMCPY_S=1
else
  PING_S=8 PING_WARM=5 PUB_S=8 DDSPERF_S=8 RAW_S=5 MEMCPY_S=3
fi

# Sirocco's participants: loopback only, and a shm root of this run's own, so that nothing else on the host meets
# them and nothing is left behind.
SHM_ROOT=/dev/shm/sirocco-compare-$$
mkdir -p "$SHM_ROOT" && chmod 700 "$SHM_ROOT"
export SIROCCO_DDS_INTERFACE=lo SIROCCO_MULTICAST_SHM_DIR=$SHM_ROOT

RUNNING="" HOGS=""
hogs_stop() { for p in $HOGS; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; HOGS=""; }
cleanup() {
  hogs_stop
  if [ -n "$RUNNING" ]; then
    kill -TERM -- "-$RUNNING" 2>/dev/null; kill -TERM "$RUNNING" 2>/dev/null
    wait "$RUNNING" 2>/dev/null
  fi
  rm -rf "$SHM_ROOT"
}
trap cleanup EXIT
trap 'echo "compare.sh: interrupted" >&2; exit 130' INT TERM

SIROCCO_JAR=examples/target/sirocco.jar
if [ ! -f "$SIROCCO_JAR" ]; then
  ./sirocco --version >/dev/null || { echo "compare.sh: cannot build the sirocco jar" >&2; exit 1; }
fi
JAVA="$JAVA_HOME/bin/java"
# The Java floors compiled once (the source launcher would compile them, and their pongs, at every run).
mkdir -p "$OUT/classes" && "$JAVA_HOME/bin/javac" -d "$OUT/classes" bench/RawPingPong.java bench/MemcpyFloor.java ||
  { echo "compare.sh: cannot compile the floors" >&2; exit 1; }
FLOOR=("$JAVA" -Dshm.dir="$SHM_ROOT" -cp "$OUT/classes")
SIROCCO=("$JAVA" --enable-native-access=ALL-UNNAMED -jar "$SIROCCO_JAR")

load() { cut -d' ' -f1 /proc/loadavg; }

# run TAG REPEAT SIZE LIMIT_S COMMAND...: runs one measurement under timeout (its own process group: timeout kills
# the forked pong or sub with it), its output in raw/TAG-SIZE-REPEAT.log, and appends one line to runs.jsonl with the
# tool's last JSON line (null if it printed none).
run() {
  local tag=$1 repeat=$2 size=$3 limit=$4; shift 4
  local log="raw/$tag-$size-$repeat.log" before rc line
  before=$(load)
  printf '%s %-14s %6s B  round %s ... ' "$(date -u +%T)" "$tag" "$size" "$repeat" >&2
  timeout -k 10 "$limit" "$@" >"$OUT/$log" 2>&1 &
  RUNNING=$!
  wait "$RUNNING"; rc=$?
  RUNNING=""
  line=$(grep -E '^\{.*\}$' "$OUT/$log" | tail -1)
  [ -n "$line" ] || line=null
  echo "rc $rc" >&2
  printf '{"tag":"%s","size":%s,"repeat":%s,"rc":%s,"load":"%s %s","log":"%s","result":%s}\n' \
    "$tag" "$size" "$repeat" "$rc" "$before" "$(load)" "$log" "$line" >> "$RUNS"
}

domain() { echo $(( (RANDOM % 100) + 120 )); }   # a domain of its own per run (ddsperf picks 20-219 itself)

LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
echo "compare.sh: $REPEATS round(s), sizes $SIZES, out $OUT, load $LOAD_START" >&2
for repeat in $(seq 1 "$REPEATS"); do
  for size in $SIZES; do
    h="$OUT/hist"
    run raw-shm "$repeat" "$size" $((RAW_S + 120)) "${FLOOR[@]}" -Dpercentiles="$h/raw-shm-$size-$repeat.hgrm" \
      RawPingPong shm "$size" "$RAW_S"
    run raw-tcp "$repeat" "$size" $((RAW_S + 120)) "${FLOOR[@]}" -Dpercentiles="$h/raw-tcp-$size-$repeat.hgrm" \
      RawPingPong tcp "$size" "$RAW_S"
    if [ "$size" -le 65507 ]; then   # the largest UDP datagram
      run raw-udp "$repeat" "$size" $((RAW_S + 120)) "${FLOOR[@]}" -Dpercentiles="$h/raw-udp-$size-$repeat.hgrm" \
        RawPingPong udp "$size" "$RAW_S"
    fi
    run ddsperf-ping "$repeat" "$size" $((DDSPERF_S + 60)) bench/ddsperf-baseline.sh latency "$size" "$DDSPERF_S"
    for transport in shm tcp; do
      run "ping-$transport" "$repeat" "$size" $((PING_WARM + PING_S + 150)) "${SIROCCO[@]}" ping --with-pong \
        --transport "$transport" --domain "$(domain)" --size "$size" --seconds "$PING_S" --warmup "$PING_WARM" \
        --percentiles "$h/ping-$transport-$size-$repeat.hgrm" --json
    done
    run ddsperf-pub "$repeat" "$size" $((DDSPERF_S + 60)) bench/ddsperf-baseline.sh throughput "$size" "$DDSPERF_S"
    for transport in shm tcp; do
      run "pub-$transport" "$repeat" "$size" $((PUB_S + 150)) "${SIROCCO[@]}" pub --with-sub --transport "$transport" \
        --domain "$(domain)" --size "$size" --seconds "$PUB_S" --json
    done
    if [ "$HOG" = 1 ] && [ "$size" = 64 ]; then
      for i in 1 2; do nice -n 19 bash -c 'while :; do :; done' & HOGS="$HOGS $!"; done
      run raw-tcp-hog "$repeat" "$size" $((RAW_S + 120)) "${FLOOR[@]}" -Dpercentiles="$h/raw-tcp-hog-$size-$repeat.hgrm" \
        RawPingPong tcp "$size" "$RAW_S"
      run ping-tcp-hog "$repeat" "$size" $((PING_WARM + PING_S + 150)) "${SIROCCO[@]}" ping --with-pong \
        --transport tcp --domain "$(domain)" --size "$size" --seconds "$PING_S" --warmup "$PING_WARM" \
        --percentiles "$h/ping-tcp-hog-$size-$repeat.hgrm" --json
      hogs_stop
    fi
    if [ "$size" = 65536 ]; then
      run memcpy "$repeat" "$size" $((MEMCPY_S + 60)) "${FLOOR[@]}" MemcpyFloor "$size" "$MEMCPY_S"
    fi
  done
done
LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)

python3 bench/compare-report.py "$OUT" --load "$LOAD_START" "$LOAD_END" --repeats "$REPEATS" \
  $( [ "$QUICK" = 1 ] && echo --quick ) > "$OUT/table.md"
rc=$?
cat "$OUT/table.md"
echo "compare.sh: raw logs, percentile files, runs.jsonl, table.json and latency-*.svg in $OUT" >&2
exit $rc
