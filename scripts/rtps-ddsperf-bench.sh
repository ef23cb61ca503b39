#!/usr/bin/env bash
# Throughput and latency of Sirocco's DDSI-RTPS against Cyclone DDS's ddsperf, next to ddsperf against itself, in one
# run on loopback (interface lo, no multicast). Needs ddsperf (apt-get install cyclonedds-tools) and the sirocco jar.
# Usage: [SIZES="64 1024 65536"] scripts/rtps-ddsperf-bench.sh [seconds per run, default 10] [domain, default 77]
# (SIZES: the pub/sub sample sizes in bytes as ddsperf counts them, default "64 1024"; above 1344 B DATA_FRAG)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
secs="${1:-10}"
domain="${2:-77}"
work="$(mktemp -d)"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
cat > "$work/cyclone.xml" <<'XML'
<CycloneDDS><Domain id="any">
  <General><Interfaces><NetworkInterface name="lo"/></Interfaces><AllowMulticast>false</AllowMulticast></General>
  <Discovery><ParticipantIndex>auto</ParticipantIndex><MaxAutoParticipantIndex>9</MaxAutoParticipantIndex>
    <Peers><Peer address="127.0.0.1"/></Peers></Discovery>
</Domain></CycloneDDS>
XML
export CYCLONEDDS_URI="file://$work/cyclone.xml" SIROCCO_DDS_INTERFACE=lo
sirocco() { "$root/sirocco" "$@"; }
# waits (up to 120 s: a JVM starts slowly on a loaded host) for a line in a file
await_line() { for _ in $(seq 240); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.5; done; return 1; }

for size in ${SIZES:-64 1024}; do
  ddsperf -i "$domain" -D $((secs + 5)) sub > "$work/sub.log" 2>&1 &
  ddsperf -i "$domain" -D "$secs" pub size "$size" > /dev/null 2>&1; wait
  echo "size $size ddsperf -> ddsperf: $(grep ' total ' "$work/sub.log" | tail -1 | cut -d' ' -f3-)"

  ddsperf -i "$domain" -D $((secs + 60)) sub > "$work/sub.log" 2>&1 &
  sirocco pub --rtps --domain "$domain" --size "$size" --seconds "$secs" | sed "s/^/size $size sirocco -> ddsperf: /"
  sleep 2 # ddsperf prints its counts once a second
  kill %1 2>/dev/null || true; wait || true
  echo "size $size sirocco -> ddsperf (ddsperf sub): $(grep ' total ' "$work/sub.log" | tail -1 | cut -d' ' -f3-)"

  sirocco sub --rtps --domain "$domain" --seconds $((secs + 60)) > "$work/ssub.log" 2>&1 &
  await_line "$work/ssub.log" 'subscribed'
  ddsperf -i "$domain" -D "$secs" pub size "$size" > /dev/null 2>&1 || true; wait || true
  echo "size $size ddsperf -> sirocco: $(grep 'sub --rtps: total' "$work/ssub.log" | sort -t' ' -k4 -n | tail -1)"
done

ddsperf -i "$domain" pong > /dev/null 2>&1 &
ddsperf -i "$domain" -D "$secs" ping > "$work/ping.log" 2>&1 || true
echo "ddsperf ping -> ddsperf pong: $(grep ' 50% ' "$work/ping.log" | tail -1 | cut -d' ' -f3-)"
sirocco ping --rtps --domain "$domain" --size 12 --seconds "$secs" | grep 'round trips' | sed 's/^/sirocco -> ddsperf pong: /'
kill %1 2>/dev/null || true; wait || true
sirocco pong --rtps --domain "$domain" --seconds $((secs + 60)) > "$work/pong.log" 2>&1 &
await_line "$work/pong.log" 'answering'
ddsperf -i "$domain" -D "$secs" ping > "$work/ping.log" 2>&1 || true
echo "ddsperf ping -> sirocco pong: $(grep ' 50% ' "$work/ping.log" | tail -1 | cut -d' ' -f3-)"
