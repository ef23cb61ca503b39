#!/usr/bin/env bash
# Transport benchmark session: every figure 3 times, the raw TCP reference interleaved with the TCP rtt runs.
# Usage: transport-bench-session.sh [rtt|throughput|all] [results.jsonl]
# Run it from anywhere: bench/transport-bench-session.sh all /tmp/results.jsonl; then
# bench/summarize-transport-bench.py /tmp/results.jsonl prints the medians and the ratio to the raw floor.
cd "$(dirname "$0")/../.."
JH=$(ls -d /usr/lib/jvm/*25* | head -1)
what=${1:-all}
out=${2:-/tmp/transport-bench-results.jsonl}
raw() { (cd /tmp && timeout -k 5 60 $JH/bin/java "$here/RawPingPong.java" tcp 64 10 2>/dev/null | tail -1) >> $out; }
tb() { timeout -k 5 90 ./sirocco transport-bench --json "$@" 2>/dev/null | tail -1 >> $out; }
echo "{\"uptime\":\"$(uptime)\"}" >> $out
if [ "$what" = rtt ] || [ "$what" = all ]; then
  for i in 1 2 3; do
    raw
    tb --transport tcp --mode rtt --size 64 --seconds 10 --threading inline
    tb --transport tcp --mode rtt --size 64 --seconds 10 --threading default
    tb --transport tcp --mode rtt --size 64 --seconds 10 --threading dedicated
  done
  for i in 1 2 3; do
    for t in inline default dedicated; do
      tb --transport loopback --mode rtt --size 64 --seconds 10 --threading $t
    done
  done
fi
if [ "$what" = throughput ] || [ "$what" = all ]; then
  for i in 1 2 3; do
    for size in 64 1024 65536; do
      for t in 1 8; do
        tb --transport tcp --mode throughput --size $size --threads $t --seconds 4 --warmup-seconds 1 --threading default
        tb --transport tcp --mode throughput --size $size --threads $t --seconds 4 --warmup-seconds 1 --threading inline
      done
    done
  done
fi
echo "{\"uptime\":\"$(uptime)\"}" >> $out
