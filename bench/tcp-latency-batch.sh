#!/usr/bin/env bash
# The tcp latency batch of docs/benchmarks.md "Over tcp" (issue 5): 3 interleaved rounds of the raw TCP floor,
# sirocco ping over tcp with the "before" jar and with the "after" jar (plus optional variants of the after jar with
# extra JVM options, which also reach the pong child through JAVA_TOOL_OPTIONS); then (SHM=1, default) 3 rounds of
# shm ping before/after. Run it under the bench lock:
#   flock /tmp/sirocco-bench.lock bench/tcp-latency-batch.sh OUTDIR [name:JAVA_OPTS ...]
# BEFORE and AFTER are the two jars to compare (required), e.g. a jar built from an older commit with
# `git worktree add /tmp/before REV && (cd /tmp/before && ./mvnw -B -q -DskipTests -pl examples -am package)` and
# this tree's examples/target/sirocco.jar. One line per run goes to OUTDIR/log: variant, round, 1-min load, the
# tool's JSON line.
# PING_EXTRA adds ping options to every ping run (e.g. "--warmup 5": on a loaded 2-core host the JIT still compiles
# the hot path several seconds in, see docs/benchmarks.md "Over tcp under load").
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../.mvn/find-jdk25.sh"
sirocco_find_jdk25 || exit 1
out=$1; shift
mkdir -p "$out"
J="$JAVA_HOME/bin/java --enable-native-access=ALL-UNNAMED"
BEFORE=${BEFORE:?the jar to compare against}
AFTER=${AFTER:-$here/../examples/target/sirocco.jar}
ping() { # jar opts transport
  JAVA_TOOL_OPTIONS="$2" timeout 60 $J $2 -jar "$1" ping --with-pong --transport "$3" --size 64 --seconds 8 ${PING_EXTRA:-} --json 2>/dev/null | grep '^{"mode"' | tail -1
}
for round in 1 2 3; do
  echo "round $round load $(cat /proc/loadavg)" >> "$out/log"
  r=$(timeout 60 $JAVA_HOME/bin/java "$here/RawPingPong.java" tcp 64 5 2>&1 | tr '\n' ' ')
  echo "raw $round $(cat /proc/loadavg | cut -d' ' -f1) $r" >> "$out/log"
  echo "before $round $(cat /proc/loadavg | cut -d' ' -f1) $(ping $BEFORE '' tcp)" >> "$out/log"
  echo "after $round $(cat /proc/loadavg | cut -d' ' -f1) $(ping $AFTER '' tcp)" >> "$out/log"
  for v in "$@"; do
    echo "${v%%:*} $round $(cat /proc/loadavg | cut -d' ' -f1) $(ping $AFTER "${v#*:}" tcp)" >> "$out/log"
  done
done
if [ "${SHM:-1}" = 1 ]; then
for round in 1 2 3; do
  echo "shm-before $round $(cat /proc/loadavg | cut -d' ' -f1) $(ping $BEFORE '' shm)" >> "$out/log"
  echo "shm-after $round $(cat /proc/loadavg | cut -d' ' -f1) $(ping $AFTER '' shm)" >> "$out/log"
done
fi
echo "end load $(cat /proc/loadavg)" >> "$out/log"
