package io.sirocco.multicast.view;

import java.util.Arrays;

/**
 * How long each member's heartbeat has been silent <em>while this member was looking</em>: the failure detector's
 * clock. A scan adds the time since the previous scan to every silent member, but never more than
 * {@code maxScanGapNs}: a longer gap means this member's own predicate thread did not run (a GC pause, a process
 * starved by a loaded machine, a long pass), and during that time a live peer's beat could not have been seen, or it
 * was starved by the same pause (every member of one JVM stops at once). Measured as plain wall time, the first scan
 * after such a pause found every peer "silent" for the whole pause and suspected live, merely slow members
 * (ViewChangeTest, RejoinTest and TcpRowSwitchesTest beside a CPU hog). A peer that really stopped is still suspected
 * after the timeout of this member's running time, so a crash is detected as fast as before on a live scanner, and
 * later only by the time this member itself was stalled.
 *
 * <p><b>Threads.</b> Predicate thread only (plain fields).
 */
final class HeartbeatSilence
{
    private final long maxScanGapNs;
    private long lastScanNs;
    private long[] lastHeartbeat = new long[0];
    private long[] silentNs = new long[0];

    /** @param maxScanGapNs the longest gap between two scans counted in full (a few heartbeat periods). */
    HeartbeatSilence(final long maxScanGapNs)
    {
        this.maxScanGapNs = maxScanGapNs;
    }

    /** A new view of {@code members}: nobody silent yet, the next scan counts from {@code nowNs}. */
    void start(final int members, final long nowNs)
    {
        lastHeartbeat = new long[members];
        silentNs = new long[members];
        lastScanNs = nowNs;
    }

    /** Opens a scan at {@code nowNs}: returns the time it counts for every silent member (the capped gap). */
    long scanStart(final long nowNs)
    {
        final long gapNs = nowNs - lastScanNs;
        lastScanNs = nowNs;
        return Math.max(0, Math.min(gapNs, maxScanGapNs));
    }

    /**
     * Records rank {@code rank}'s heartbeat as read in this scan.
     *
     * @param countedNs what {@link #scanStart} returned for this scan.
     * @return how long the heartbeat has been silent while this member looked (0 if it just moved).
     */
    long observe(final int rank, final long heartbeat, final long countedNs)
    {
        if (heartbeat != lastHeartbeat[rank])
        {
            lastHeartbeat[rank] = heartbeat;
            silentNs[rank] = 0;
        }
        else
        {
            silentNs[rank] += countedNs;
        }
        return silentNs[rank];
    }

    /** The silence of every rank so far (handed to the next view's {@link #carry}). */
    long[] silentNs()
    {
        return Arrays.copyOf(silentNs, silentNs.length);
    }

    /** A member of the previous view keeps the silence measured there (see FailureDetector#carryLiveness). */
    void carry(final int rank, final long silenceNs)
    {
        silentNs[rank] = silenceNs;
    }
}
