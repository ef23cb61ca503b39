#!/usr/bin/env bash
# bench/tcp-latency-batch.sh with both vCPUs kept awake by two `nice -n 19` busy loops (lowest priority, so the
# measured threads preempt them), started and stopped by pid inside the caller's lock hold. On a quiet machine the
# blocking raw TCP floor pays a halted vCPU's wake-up (~28-33 us one-way instead of ~7.2 us loaded); this reproduces
# the loaded floor the #5 target was stated against ("Over tcp, third step" in docs/benchmarks.md). Run it as
#   SHM=0 BEFORE=... AFTER=... flock /tmp/sirocco-bench.lock bench/tcp-latency-busy.sh OUTDIR
set -u
here=$(cd "$(dirname "$0")" && pwd)
pids=""
for i in 1 2; do
  nice -n 19 bash -c 'while :; do :; done' &
  pids="$pids $!"
done
sleep 2
"$here/tcp-latency-batch.sh" "$@"
for p in $pids; do kill "$p"; done
