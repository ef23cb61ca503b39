#!/usr/bin/env bash
# Transport benchmark session: every figure 3 times, raw TCP reference interleaved.
cd "$(dirname "$0")/../.."
JH=$(ls -d /usr/lib/jvm/*25* | head -1)
out=${1:-/tmp/transport-bench-results.jsonl}
: > $out
raw() { (cd /tmp && timeout 120 $JH/bin/java /work/shared/bench/RawPingPong.java tcp 64 5 2>/dev/null | tail -1) >> $out; }
tb() { ./sirocco transport-bench --seconds 5 --warmup-seconds 2 --json "$@" 2>/dev/null | tail -1 >> $out; }
for i in 1 2 3; do
  raw
  tb --transport tcp --mode rtt --size 64 --threading inline
  tb --transport tcp --mode rtt --size 64 --threading dedicated
done
for i in 1 2 3; do
  tb --transport loopback --mode rtt --size 64 --threading inline
  tb --transport loopback --mode rtt --size 64 --threading dedicated
done
for i in 1 2 3; do
  for size in 64 1024 65536; do
    for t in 1 8; do
      tb --transport tcp --mode throughput --size $size --threads $t --threading dedicated
      tb --transport tcp --mode throughput --size $size --threads $t --threading inline
    done
  done
  raw
done

