package io.sirocco.multicast.view;

import io.sirocco.multicast.model.Member;
import io.sirocco.multicast.model.View;
import io.sirocco.multicast.sst.SstLayout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Heartbeats and failure detection of the current view ({@link ViewManager}): this member beats on the heartbeat
 * period; another member is suspected when its heartbeat did not move for the suspicion timeout (the join grace before
 * its first beat in this view, half of it for a member of the previous view), counted on this member's running time
 * ({@link HeartbeatSilence}: a stall of this member's own thread is not the peer's silence), when its process on this
 * host exited, or when it suspects this member (then this member is the one out).
 *
 * <p><b>Threads.</b> Predicate thread only, except {@link #exited(long)} (any thread: {@link ProcessHandle#onExit()}
 * callbacks) which adds to a concurrent set. {@code HEARTBEAT} is stored with release semantics, then pushed; other
 * rows' {@code HEARTBEAT} and {@code SUSPECTED} are read with acquire semantics.
 */
final class FailureDetector
{
    private static final Logger LOG = LoggerFactory.getLogger(FailureDetector.class);
    private static final long SELF_PID = ProcessHandle.current().pid();

    private final ViewState s;
    private final long memberId;
    private final long heartbeatPeriodNs;
    private final long suspicionTimeoutNs;
    private final long continuingGraceNs;
    private final Set<Long> exitedMemberIds = ConcurrentHashMap.newKeySet();
    private final HeartbeatSilence silence;
    private long heartbeat;
    private long nextBeatNs;
    /**
     * By rank: the member was in the previous view too, so its silence before its first beat in this view is measured
     * from its last beat in the previous view, with half the join grace, rather than given the join grace from now.
     */
    private boolean[] continuing = new boolean[0];
    /** Processes of the members on this host, by rank (null: another host, this process, or already exited). */
    private ProcessHandle[] sameHostProcesses = new ProcessHandle[0];

    /** @param maxStretch how far a slow beater's timeout may stretch (see {@link HeartbeatSilence}; 1: never). */
    FailureDetector(final ViewState state, final long memberId, final long heartbeatPeriodNs,
        final long suspicionTimeoutNs, final long continuingGraceNs, final long maxStretch)
    {
        this.s = state;
        this.memberId = memberId;
        this.heartbeatPeriodNs = heartbeatPeriodNs;
        this.suspicionTimeoutNs = suspicionTimeoutNs;
        this.continuingGraceNs = continuingGraceNs;
        // Scans come at least once per heartbeat period on a running predicate thread; four periods of slack.
        this.silence = new HeartbeatSilence(4 * heartbeatPeriodNs, maxStretch);
    }

    /** Starts watching the view of {@link ViewState#ctx} (just reset): everyone's silence counts from {@code now}. */
    void start(final long now)
    {
        final int members = s.members;
        silence.start(members, now);
        continuing = new boolean[members];
        nextBeatNs = now;
        sameHostProcesses = new ProcessHandle[members];
        for (int r = 0; r < members; r++)
        {
            final Member m = s.ctx.view.members().get(r);
            if (m.memberId() != memberId && m.host().equals(ViewState.localHost()) && m.pid() != SELF_PID)
            {
                final int rank = r;
                ProcessHandle.of(m.pid()).ifPresentOrElse(
                    h ->
                    {
                        sameHostProcesses[rank] = h;
                        h.onExit().thenRun(() -> exited(m.memberId()));
                    },
                    () -> exited(m.memberId()));
            }
        }
    }

    /** Same-host crash detection hook (from {@link ProcessHandle#onExit()}). Any thread. */
    void exited(final long id)
    {
        exitedMemberIds.add(id);
    }

    /** Beats when the period is due, and polls the same-host processes on the same period. */
    void beat(final long now)
    {
        if (now - nextBeatNs >= 0)
        {
            heartbeat++;
            s.table.setRelease(s.me, SstLayout.HEARTBEAT, heartbeat);
            s.ctx.transport.pushCounters(SstLayout.HEARTBEAT, 1);
            s.ctx.transport.flush();
            nextBeatNs = now + heartbeatPeriodNs;
            pollSameHostProcesses();
        }
    }

    /**
     * Adds to {@code mask} every member this member now suspects and every suspicion the others published. When some
     * member suspects this one (and it did not ask to leave) this member is excluded and the scan stops: the caller
     * checks {@link ViewState#excluded}.
     */
    long scan(final long initialMask, final long now, final boolean leaveRequested)
    {
        long mask = initialMask;
        final ViewContext ctx = s.ctx;
        final long countedNs = silence.scanStart(now);
        for (int r = 0; r < s.members; r++)
        {
            if (r == s.me || (mask & (1L << r)) != 0)
            {
                continue;
            }
            final long hb = s.table.getAcquire(r, SstLayout.HEARTBEAT);
            final long silentNs = silence.observe(r, hb, countedNs);
            final long timeoutNs = hb != 0 ? silence.timeoutNs(r, suspicionTimeoutNs)
                : continuing[r] ? continuingGraceNs : s.joinGraceNs;
            if (silentNs > timeoutNs)
            {
                LOG.warn("member {} (rank {}) of view {} suspected: no heartbeat for {} ms",
                    ctx.view.members().get(r).memberId(), r, ctx.view.viewId(), timeoutNs / 1_000_000);
                mask |= 1L << r;
            }
            if (!exitedMemberIds.isEmpty() && exitedMemberIds.contains(ctx.view.members().get(r).memberId()))
            {
                mask |= 1L << r;
            }
            final long theirs = s.table.getAcquire(r, SstLayout.SUSPECTED);
            if ((theirs & (1L << s.me)) != 0 && !leaveRequested)
            {
                s.exclude("member " + ctx.view.members().get(r).memberId() + " suspects this member in view "
                    + ctx.view.viewId());
                return mask;
            }
            mask |= theirs;
        }
        return mask;
    }

    /**
     * Same-host crash detection on the heartbeat period. {@link ProcessHandle#onExit()} alone is slow for a process
     * that is not our child: the JDK polls it every 300 ms plus 30 ms per poll (up to 5 s), so a crash was seen up to
     * several hundred ms late. {@link ProcessHandle#isAlive()} is one {@code /proc} read (it also checks the start time,
     * so a reused pid is not taken for the member).
     */
    private void pollSameHostProcesses()
    {
        for (int r = 0; r < s.members; r++)
        {
            final ProcessHandle h = sameHostProcesses[r];
            if (h != null && !h.isAlive())
            {
                sameHostProcesses[r] = null;
                exited(s.ctx.view.members().get(r).memberId());
            }
        }
    }

    /** The longest gap between each rank's beats lately (handed to {@link #carryLiveness} of the next view). */
    long[] longestGapNs()
    {
        return silence.longestGapNs();
    }

    /** How long each rank's heartbeat has been silent (handed to {@link #carryLiveness} of the next view). */
    long[] silentNs()
    {
        return silence.silentNs();
    }

    /**
     * A member of the previous view is not a joiner: it has been beating all along, in the previous view's table, until
     * it installs this one. Without this a leader that died after its commit (the committed view still contains it)
     * stayed in the new view for the whole join grace (10 s or more) before anyone suspected it; a view with a dead
     * member that long is one false suspicion under load away from losing its majority. Its suspicion itself is not
     * carried over (Derecho does): when a load spike made every member suspect every other after a commit, each
     * installed the committed view alone-minded, carried its suspicions and excluded itself, where fresh heartbeats in
     * the new table let the view survive (seen in {@code NetnsRejoinTest}). Half the join grace (5 s or more), counting
     * the silence this member measured in the previous view since the member's last beat there, leaves room for a survivor slower than this one to finish
     * the old view's trim and build the new table under load.
     * Predicate thread, right after {@link #start}.
     */
    void carryLiveness(final View oldView, final long[] oldSilentNs, final long[] oldLongestGapNs)
    {
        for (int r = 0; r < s.members; r++)
        {
            final int old = oldView.rankOf(s.ctx.view.members().get(r).memberId());
            if (old >= 0 && r != s.me)
            {
                continuing[r] = true;
                silence.carry(r, oldSilentNs[old]);
                silence.carryGap(r, oldLongestGapNs[old]);
            }
        }
    }
}
