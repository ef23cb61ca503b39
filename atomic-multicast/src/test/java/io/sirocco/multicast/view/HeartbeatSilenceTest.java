package io.sirocco.multicast.view;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The failure detector's clock on a simulated timeline (no sleeping): a peer's silence counts only the time this
 * member was scanning, so a stall of this member's own thread never makes a live peer look silent, while a peer that
 * stopped beating is silent for as long as this member kept looking.
 */
class HeartbeatSilenceTest
{
    private static final long MS = 1_000_000L;
    private static final long PERIOD_NS = 10 * MS;
    private static final long TIMEOUT_NS = 400 * MS;

    @Test
    void aStallOfThisMemberIsNotThePeersSilence()
    {
        final HeartbeatSilence silence = new HeartbeatSilence(4 * PERIOD_NS);
        long now = 0;
        silence.start(2, now);
        long peerBeat = 0;
        for (int i = 0; i < 50; i++)
        {
            now += PERIOD_NS;
            peerBeat++;
            assertThat(silence.observe(1, peerBeat, silence.scanStart(now))).isZero();
        }
        // The whole JVM stops for 3 s (GC, a starved process): neither this member scans nor the peer beats.
        now += 3_000 * MS;
        final long afterStall = silence.observe(1, peerBeat, silence.scanStart(now));
        assertThat(afterStall).as("silence counted for the stall").isEqualTo(4 * PERIOD_NS)
            .isLessThan(TIMEOUT_NS);
        // The peer beats at its next chance and is silent no more.
        now += PERIOD_NS;
        assertThat(silence.observe(1, peerBeat + 1, silence.scanStart(now))).isZero();
    }

    @Test
    void aPeerThatStoppedIsSilentForAsLongAsThisMemberLooked()
    {
        final HeartbeatSilence silence = new HeartbeatSilence(4 * PERIOD_NS);
        long now = 0;
        silence.start(2, now);
        assertThat(silence.observe(1, 7, silence.scanStart(now += PERIOD_NS))).isZero();
        long silent = 0;
        int scans = 0;
        while (silent <= TIMEOUT_NS)
        {
            now += PERIOD_NS;
            silent = silence.observe(1, 7, silence.scanStart(now));
            scans++;
        }
        assertThat(scans).as("scans of one period until the timeout passed").isEqualTo(41);
        assertThat(silent).isEqualTo(41 * PERIOD_NS);
    }

    @Test
    void slowScansStillReachTheTimeoutWithinTheirCap()
    {
        final HeartbeatSilence silence = new HeartbeatSilence(4 * PERIOD_NS);
        long now = 0;
        silence.start(1, now);
        silence.observe(0, 3, silence.scanStart(now += PERIOD_NS));
        // Scans every 100 ms (a starved scanner): each counts the 40 ms cap.
        long silent = 0;
        for (int i = 0; i < 11; i++)
        {
            silent = silence.observe(0, 3, silence.scanStart(now += 100 * MS));
        }
        assertThat(silent).isEqualTo(11 * 4 * PERIOD_NS).isGreaterThan(TIMEOUT_NS);
    }

    @Test
    void aContinuingMemberKeepsTheSilenceOfThePreviousView()
    {
        final HeartbeatSilence old = new HeartbeatSilence(4 * PERIOD_NS);
        old.start(2, 0);
        old.observe(1, 5, old.scanStart(PERIOD_NS));
        old.observe(1, 5, old.scanStart(2 * PERIOD_NS));
        old.observe(1, 5, old.scanStart(3 * PERIOD_NS));
        final HeartbeatSilence next = new HeartbeatSilence(4 * PERIOD_NS);
        next.start(2, 10_000 * MS);
        next.carry(0, old.silentNs()[1]);
        assertThat(next.observe(0, 0, next.scanStart(10_000 * MS + PERIOD_NS))).isEqualTo(3 * PERIOD_NS);
    }

    /** Beats {@code beats} times, one period apart, then stays silent for {@code gapNs} and beats once more. */
    private static long beatThenGap(final HeartbeatSilence silence, final long start, final int beats,
        final long gapNs)
    {
        long now = start;
        long beat = 0;
        for (int i = 0; i < beats; i++)
        {
            silence.observe(1, ++beat, silence.scanStart(now += PERIOD_NS));
        }
        for (long silent = 0; silent < gapNs; silent += PERIOD_NS)
        {
            silence.observe(1, beat, silence.scanStart(now += PERIOD_NS));
        }
        silence.observe(1, ++beat, silence.scanStart(now += PERIOD_NS));
        return now;
    }

    @Test
    void aSteadyPeerIsSuspectedAfterTheConfiguredTimeout()
    {
        final HeartbeatSilence silence = new HeartbeatSilence(4 * PERIOD_NS, 4);
        silence.start(2, 0);
        beatThenGap(silence, 0, 100, 0);
        assertThat(silence.timeoutNs(1, TIMEOUT_NS)).isEqualTo(TIMEOUT_NS);
    }

    @Test
    void aPeerThatBeatWithLongGapsGetsAStretchedTimeout()
    {
        final HeartbeatSilence silence = new HeartbeatSilence(4 * PERIOD_NS, 4);
        silence.start(2, 0);
        beatThenGap(silence, 0, 10, 300 * MS);
        // Three times the gap (a little less: the gap shrinks by 1/16 of the time that passed since).
        assertThat(silence.timeoutNs(1, TIMEOUT_NS)).isGreaterThan(800 * MS).isLessThanOrEqualTo(900 * MS);
    }

    @Test
    void theStretchIsCappedAndCanBeTurnedOff()
    {
        final HeartbeatSilence capped = new HeartbeatSilence(4 * PERIOD_NS, 4);
        capped.start(2, 0);
        beatThenGap(capped, 0, 10, 3_000 * MS);
        assertThat(capped.timeoutNs(1, TIMEOUT_NS)).isEqualTo(4 * TIMEOUT_NS);
        final HeartbeatSilence off = new HeartbeatSilence(4 * PERIOD_NS, 1);
        off.start(2, 0);
        beatThenGap(off, 0, 10, 3_000 * MS);
        assertThat(off.timeoutNs(1, TIMEOUT_NS)).isEqualTo(TIMEOUT_NS);
    }

    @Test
    void aLongGapIsForgottenOnceThePeerBeatsSteadilyAgain()
    {
        final HeartbeatSilence silence = new HeartbeatSilence(4 * PERIOD_NS, 4);
        silence.start(2, 0);
        final long now = beatThenGap(silence, 0, 10, 300 * MS);
        assertThat(silence.timeoutNs(1, TIMEOUT_NS)).isGreaterThan(TIMEOUT_NS);
        // 16 times the gap of steady beats: the remembered gap has shrunk to nothing.
        beatThenGap(silence, now, (int)(16 * 300 * MS / PERIOD_NS), 0);
        assertThat(silence.timeoutNs(1, TIMEOUT_NS)).isEqualTo(TIMEOUT_NS);
    }

    @Test
    void aContinuingMemberKeepsItsLongestGap()
    {
        final HeartbeatSilence old = new HeartbeatSilence(4 * PERIOD_NS, 4);
        old.start(2, 0);
        beatThenGap(old, 0, 10, 300 * MS);
        final HeartbeatSilence next = new HeartbeatSilence(4 * PERIOD_NS, 4);
        next.start(2, 10_000 * MS);
        assertThat(next.timeoutNs(0, TIMEOUT_NS)).isEqualTo(TIMEOUT_NS);
        next.carryGap(0, old.longestGapNs()[1]);
        assertThat(next.timeoutNs(0, TIMEOUT_NS)).isEqualTo(old.timeoutNs(1, TIMEOUT_NS)).isGreaterThan(TIMEOUT_NS);
    }
}
