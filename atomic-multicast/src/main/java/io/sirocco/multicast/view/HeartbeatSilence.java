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
 * <p><b>A peer on a loaded host.</b> A live process that the scheduler leaves unrun for seconds beats late although
 * nothing is wrong with it (a soak at load 50 on 2 cores excluded a live publisher after a 2 s gap). So the timeout of
 * each member stretches with the longest gap between its beats seen lately ({@link #timeoutNs}): {@value #STRETCH}
 * times that gap, never less than the configured timeout nor more than {@code maxStretch} times it. The gap is
 * forgotten slowly (by 1/{@value #FORGET} of the running time that passes), so a host that calmed down gets the
 * configured timeout back. A member that beat steadily is still suspected after the configured timeout.
 *
 * <p><b>Threads.</b> Predicate thread only (plain fields).
 */
final class HeartbeatSilence
{
    /** A member's timeout is this many times the longest gap between its beats seen lately. */
    static final int STRETCH = 3;
    /** The remembered gap shrinks by 1/FORGET of the running time that passes. */
    static final int FORGET = 16;

    private final long maxScanGapNs;
    private final long maxStretch;
    private long lastScanNs;
    private long[] lastHeartbeat = new long[0];
    private long[] silentNs = new long[0];
    /** By rank: the longest silence before a beat seen lately (shrinking, see {@link #FORGET}). */
    private long[] longestGapNs = new long[0];

    /** @param maxScanGapNs the longest gap between two scans counted in full (a few heartbeat periods). */
    HeartbeatSilence(final long maxScanGapNs)
    {
        this(maxScanGapNs, 1);
    }

    /**
     * @param maxStretch how many times the configured timeout a slow beater's timeout may reach (1: never
     *                   stretched).
     */
    HeartbeatSilence(final long maxScanGapNs, final long maxStretch)
    {
        this.maxScanGapNs = maxScanGapNs;
        this.maxStretch = Math.max(1, maxStretch);
    }

    /** A new view of {@code members}: nobody silent yet, the next scan counts from {@code nowNs}. */
    void start(final int members, final long nowNs)
    {
        lastHeartbeat = new long[members];
        silentNs = new long[members];
        longestGapNs = new long[members];
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
        longestGapNs[rank] = Math.max(0, longestGapNs[rank] - countedNs / FORGET);
        if (heartbeat != lastHeartbeat[rank])
        {
            lastHeartbeat[rank] = heartbeat;
            longestGapNs[rank] = Math.max(longestGapNs[rank], silentNs[rank]);
            silentNs[rank] = 0;
        }
        else
        {
            silentNs[rank] += countedNs;
        }
        return silentNs[rank];
    }

    /**
     * The silence after which rank {@code rank} is suspected: {@code configuredNs}, stretched for a member that beat
     * with long gaps lately (see the class comment).
     */
    long timeoutNs(final int rank, final long configuredNs)
    {
        final long stretched = longestGapNs[rank] > Long.MAX_VALUE / STRETCH ? Long.MAX_VALUE
            : STRETCH * longestGapNs[rank];
        return Math.max(configuredNs, Math.min(stretched, maxStretch * configuredNs));
    }

    /** The longest gaps seen so far, by rank (handed to the next view's {@link #carryGap}). */
    long[] longestGapNs()
    {
        return Arrays.copyOf(longestGapNs, longestGapNs.length);
    }

    /** A member of the previous view keeps the longest gap seen there. */
    void carryGap(final int rank, final long gapNs)
    {
        longestGapNs[rank] = gapNs;
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
