#!/usr/bin/env bash
# The integrator's check of a merged tree: every end-to-end figure the issues name, with the references (raw Java
# floors, Cyclone ddsperf) interleaved in the same batch. One JSON line per run on stdout and in $OUT; quote medians
# of the three runs and ratios within the batch (docs/benchmarks.md).
#   bench/integration-batch.sh            # from the repository root, after ./sirocco has built its jar
set -u
cd "$(dirname "$0")/.."
. .mvn/find-jdk25.sh
sirocco_find_jdk25 || exit 1
OUT=${OUT:-/tmp/sirocco-integration-batch.jsonl}
: > "$OUT"
B=bench
# SECTIONS picks a subset (default all): transport latency pubsub mcast log shm-spread
SECTIONS=${SECTIONS:-transport latency pubsub mcast log shm-spread}
want() { [[ " $SECTIONS " == *" $1 "* ]]; }
run() { local tag=$1; shift; local line; line=$(timeout 180 "$@" 2>/dev/null | tail -1); echo "{\"tag\":\"$tag\",\"load\":\"$(cut -d' ' -f1 /proc/loadavg)\",\"result\":${line:-null}}" | tee -a "$OUT"; }
want transport && for i in 1 2 3; do
  run raw-tcp "$JAVA_HOME/bin/java" "$B/RawPingPong.java" tcp 64 5
  run transport-tcp ./sirocco transport-bench --transport tcp --mode rtt --size 64 --seconds 5 --json
  run transport-loopback ./sirocco transport-bench --transport loopback --mode rtt --size 64 --seconds 5 --json
done
want latency && for i in 1 2 3; do
  run ddsperf-lat "$B/ddsperf-baseline.sh" latency 64 8
  run raw-shm "$JAVA_HOME/bin/java" "$B/RawPingPong.java" shm 64 5
  run dds-ping-shm ./sirocco ping --with-pong --transport shm --size 64 --seconds 8 --json
  run dds-ping-tcp ./sirocco ping --with-pong --transport tcp --size 64 --seconds 8 --json
done
want pubsub && for i in 1 2 3; do
  run ddsperf-thr "$B/ddsperf-baseline.sh" throughput 1024 8
  run dds-pub-shm ./sirocco pub --with-sub --size 1024 --seconds 8 --json
done
want mcast && for i in 1 2 3; do
  run mcast-tcp-batch-on ./sirocco mcast-bench --members 3 --senders all --size 1024 --transport tcp --batching on --messages 50000 --json
  run mcast-tcp-batch-off ./sirocco mcast-bench --members 3 --senders all --size 1024 --transport tcp --batching off --messages 50000 --json
  run mcast-shm-undelayed ./sirocco mcast-bench --members 3 --senders all --size 1024 --transport shm --json
  run mcast-shm-delayed ./sirocco mcast-bench --members 3 --senders all --size 1024 --transport shm --delay-us 100 --delayed one --json
  run mcast-shm-1sg ./sirocco mcast-bench --members 3 --senders all --size 1024 --transport shm --messages 100000 --subgroups 1 --json
  run mcast-shm-10sg-1active ./sirocco mcast-bench --members 3 --senders all --size 1024 --transport shm --messages 100000 --subgroups 10 --active one --json
  run mcast-tcp-kill ./sirocco mcast-bench --members 3 --senders all --size 1024 --transport tcp --messages 40000 --kill-one-at 1500 --json
done
want log && for i in 1 2 3; do
  run log-none ./sirocco log-bench --size 64 --entries 1000000 --sync none --recover --json
done
# The shm ping/pong latency depends on where the scheduler puts the two predicate threads (docs/benchmarks.md, "The
# ~13 µs slow mode"): five more runs show the spread, not only the median.
want shm-spread && for i in 1 2 3 4 5; do
  run dds-ping-shm-extra ./sirocco ping --with-pong --transport shm --size 64 --seconds 5 --json
done
