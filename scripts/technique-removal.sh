#!/usr/bin/env bash
# Shows that each Spindle technique has a test that bites (issue 23): switches each technique off in turn through
# the test-only system property spindle.off and runs the test that guards it, which must go red; then runs them all
# with every technique on, which must be green. Exit 0 only when every "off" run failed and the "on" run passed.
#
# Usage: scripts/technique-removal.sh            (from the repository root; offline Maven, JDK 25)
# Each run is one `./mvnw verify` of atomic-multicast and the modules below it, so the whole script takes a few
# minutes. Output: one line per run, then the verdict.
set -u
cd "$(dirname "$0")/.."
. .mvn/find-jdk25.sh && sirocco_find_jdk25 >/dev/null

# technique -> the test that must fail without it
techniques=(
    "sendBatching=SpindleTechniquesTest#sendBatchingPublishesAPileOfCommitsInOneBatch"
    "receiveBatching=SpindleTechniquesTest#receiveBatchingTakesAPileOfArrivalsInOneBatch"
    "deliveryBatching=SpindleTechniquesTest#deliveryBatchingDeliversAPileOfStableMessagesInOneBatch"
    "pushOutsideLock=SpindleTechniquesTest#pushesHappenOutsideTheSenderLock"
    "nullSends=NullSendTest#stoppedSenderDoesNotStallTheOthersAndNullsStopWithTraffic"
)

log_dir=atomic-multicast/target/technique-removal
mkdir -p "$log_dir"

run() # <off-list> <test> <log>
{
    ./mvnw -B -q -o -pl atomic-multicast -am verify -Dspindle.off="$1" -Dtest="$2" \
        -Dsurefire.failIfNoSpecifiedTests=false >"$3" 2>&1
}

ok=1
for entry in "${techniques[@]}"; do
    technique=${entry%%=*}
    test=${entry#*=}
    log="$log_dir/$technique-off.log"
    if run "$technique" "$test" "$log"; then
        echo "$technique off: $test PASSED  <- the test does not bite (log: $log)"
        ok=0
    else
        # The surefire summary line (test, line, description) and the value the assertion got.
        summary=$(grep -m1 -E '^\[ERROR\]   [A-Za-z]+Test\.' "$log" | sed 's/^\[ERROR\] *//' | cut -c1-160)
        actual=$(grep -m1 -A1 'Expecting actual:' "$log" | tail -n +2 | tr -d '[:space:]')
        [ -n "$actual" ] || actual=$(grep -m1 -oE 'but was: [^[:space:]]+' "$log" | sed 's/but was: //')
        echo "$technique off: FAILED as it must: ${summary:-see $log}${actual:+ (got $actual)}"
    fi
done

all_tests=$(printf '%s\n' "${techniques[@]}" | sed 's/^[^=]*=//' | paste -sd, -)
if run "" "$all_tests" "$log_dir/all-on.log"; then
    echo "all on: ${#techniques[@]} tests PASSED"
else
    echo "all on: FAILED (log: $log_dir/all-on.log)"
    ok=0
fi

if [ "$ok" = 1 ]; then
    echo "verdict: every technique is guarded by a test that fails without it"
else
    echo "verdict: FAILED"
    exit 1
fi
