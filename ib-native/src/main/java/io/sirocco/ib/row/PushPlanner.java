package io.sirocco.ib.row;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.function.LongSupplier;

import io.sirocco.ib.verbs.Verbs;
import io.sirocco.multicast.spi.RowSuspicionListener;

/**
 * Turns SST pushes into RDMA work requests, one RC queue pair per peer. It owns the rules; {@link RowWriteVerbs}
 * only posts.
 * <ul>
 *   <li><b>Ranges.</b> {@link #pushBytes} is one RDMA WRITE per live peer of exactly the range (split only above
 *   {@link #MAX_WRITE_BYTES}); the NIC reads the bytes lazily, which is safe because only monotonic data travels this
 *   way and every guard that covers it is posted after it on the same queue pair.</li>
 *   <li><b>Snapshot rule and guard order.</b> Counters and guards never travel as lazy writes. {@link #pushCounters}
 *   reads each counter with acquire <em>now</em> and posts the snapshot INLINE; {@link #pushGuard} posts the caller's
 *   snapshotted value INLINE. Because a reliable-connected QP executes and delivers its work requests in order, a
 *   peer that sees a guard has seen every range posted to it before the guard, and the guard's value was fixed before
 *   those ranges were posted, so it never covers bytes that were not yet on their way.</li>
 *   <li><b>Signal cadence.</b> Work requests are unsignaled except every {@code signalEvery}-th per peer, and the one
 *   that fills a peer's send queue; a signaled completion retires every earlier request of that queue.</li>
 *   <li><b>Failure.</b> An error completion, a failed post, a signaled request older than
 *   {@code completionTimeoutNs}, or a send queue that stays full that long freezes the peer's row (nothing more is
 *   posted to it) and reports one suspicion. Flush errors of an already frozen peer are ignored.</li>
 * </ul>
 *
 * <p>Threading: one pushing thread (the group's predicate thread) calls everything. The local row is written by that
 * same thread, so the acquire reads of {@link #pushCounters} pair with its own earlier stores; they are acquire so that
 * the contract holds even if a counter is bumped by another thread with release.
 */
public final class PushPlanner
{
    /** Largest single RDMA WRITE the planner posts (an SGE length is 32 bits). */
    public static final int MAX_WRITE_BYTES = 1 << 30;

    private static final VarHandle COUNTER = ValueLayout.JAVA_LONG.varHandle();
    private static final int PEER_SHIFT = 40;
    private static final long SEQ_MASK = (1L << PEER_SHIFT) - 1;

    private final RowWriteVerbs verbs;
    private final MemorySegment myRow;
    private final int myRank;
    private final int members;
    private final PushPlannerConfig config;
    private final RowSuspicionListener suspicions;
    private final LongSupplier nanoClock;
    private final MemorySegment snapshot;
    /** {@code snapshotWords[n]}: the first n words of {@link #snapshot}, sliced once so pushes allocate nothing. */
    private final MemorySegment[] snapshotWords;
    private final RowWriteVerbs.CompletionSink sink = this::onCompletion;

    private final boolean[] frozen;
    private final long[] nextSeq;
    private final long[] retiredSeq;
    private final int[] sinceSignal;
    private final long[][] signaledSeq;
    private final long[][] signaledAtNs;
    private final int[] signaledHead;
    private final int[] signaledCount;
    private long pushCount;

    /**
     * @param myRow   this member's row in the local table (the source of every write)
     * @param members rows in the view; peers are every rank except {@code myRank}
     */
    public PushPlanner(
        final RowWriteVerbs verbs, final MemorySegment myRow, final int myRank, final int members,
        final PushPlannerConfig config, final RowSuspicionListener suspicions, final LongSupplier nanoClock)
    {
        this.verbs = verbs;
        this.myRow = myRow;
        this.myRank = myRank;
        this.members = members;
        this.config = config;
        this.suspicions = suspicions;
        this.nanoClock = nanoClock;
        this.snapshot = Arena.ofAuto().allocate(config.maxInlineBytes(), 8);
        this.snapshotWords = new MemorySegment[config.maxInlineBytes() / 8 + 1];
        for (int n = 0; n < snapshotWords.length; n++)
        {
            snapshotWords[n] = snapshot.asSlice(0, 8L * n);
        }
        this.frozen = new boolean[members];
        this.nextSeq = new long[members];
        this.retiredSeq = new long[members];
        this.sinceSignal = new int[members];
        final int signaledCapacity = config.sendQueueDepth() / config.signalEvery() + 2;
        this.signaledSeq = new long[members][signaledCapacity];
        this.signaledAtNs = new long[members][signaledCapacity];
        this.signaledHead = new int[members];
        this.signaledCount = new int[members];
        frozen[myRank] = true; // never write to ourselves
    }

    /** Pushes {@code lengthBytes} at {@code rowOffset} to every live peer as lazy RDMA WRITEs. */
    public void pushBytes(final long rowOffset, final long lengthBytes)
    {
        checkRange(rowOffset, lengthBytes);
        for (int peer = 0; peer < members; peer++)
        {
            if (frozen[peer])
            {
                continue;
            }
            pushCount++;
            for (long done = 0; done < lengthBytes && !frozen[peer]; )
            {
                final int chunk = (int)Math.min(MAX_WRITE_BYTES, lengthBytes - done);
                final long seq = reserve(peer);
                if (seq < 0)
                {
                    break;
                }
                final boolean signaled = signal(peer);
                final int rc = verbs.postWrite(peer, wrId(peer, seq), rowOffset + done, chunk, signaled);
                posted(peer, seq, signaled, rc, "RDMA WRITE", rowOffset + done, chunk);
                done += chunk;
            }
        }
    }

    /** Snapshots {@code count} counters at {@code rowOffset} with acquire, now, and pushes the snapshot INLINE. */
    public void pushCounters(final long rowOffset, final int count)
    {
        checkAligned(rowOffset);
        checkRange(rowOffset, 8L * count);
        final int perWrite = config.maxInlineBytes() / 8;
        boolean counted = false;
        for (int first = 0; first < count; first += perWrite)
        {
            final int n = Math.min(perWrite, count - first);
            final long offset = rowOffset + 8L * first;
            for (int i = 0; i < n; i++)
            {
                // acquire: the value we publish is at least what any earlier release store in this row made visible
                snapshot.set(ValueLayout.JAVA_LONG, 8L * i, (long)COUNTER.getAcquire(myRow, offset + 8L * i));
            }
            postInlineToAll(offset, snapshotWords[n], !counted, "INLINE counters write");
            counted = true;
        }
    }

    /** Pushes one guard with the value the caller snapshotted before pushing the data it covers, INLINE. */
    public void pushGuard(final long rowOffset, final long value)
    {
        checkAligned(rowOffset);
        checkRange(rowOffset, 8);
        snapshot.set(ValueLayout.JAVA_LONG, 0, value);
        postInlineToAll(rowOffset, snapshotWords[1], true, "INLINE guard write");
    }

    /** Stops writing to {@code rank}; idempotent, reports nothing (the caller already knows). */
    public void freeze(final int rank)
    {
        if (rank != myRank && !frozen[rank])
        {
            frozen[rank] = true;
            verbs.frozen(rank);
        }
    }

    /** Whether nothing more is written to {@code rank} (always true for this member's own rank). */
    public boolean isFrozen(final int rank)
    {
        return frozen[rank];
    }

    /**
     * Polls completions once, then checks deadlines.
     *
     * @return completions handled
     */
    public int pollCompletions()
    {
        final int n = verbs.poll(sink);
        checkDeadlines();
        return n;
    }

    /** Freezes and suspects every live peer whose oldest outstanding signaled request is past its deadline. */
    public void checkDeadlines()
    {
        final long nowNs = nanoClock.getAsLong();
        for (int peer = 0; peer < members; peer++)
        {
            if (!frozen[peer] && signaledCount[peer] > 0
                && nowNs - signaledAtNs[peer][signaledHead[peer]] - config.completionTimeoutNs() > 0)
            {
                fail(peer, "no completion for an RDMA write within " + config.completionTimeoutNs() / 1_000_000
                    + " ms");
            }
        }
    }

    /** Push operations issued so far, one per push call per live target. */
    public long pushCount()
    {
        return pushCount;
    }

    /** Work requests posted to {@code peer} and not yet known complete. */
    public long outstanding(final int peer)
    {
        return nextSeq[peer] - retiredSeq[peer];
    }

    /** The peer encoded in a work-request id. */
    public static int peerOf(final long wrId)
    {
        return (int)(wrId >>> PEER_SHIFT);
    }

    private void postInlineToAll(
        final long rowOffset, final MemorySegment bytes, final boolean count, final String what)
    {
        for (int peer = 0; peer < members; peer++)
        {
            if (frozen[peer])
            {
                continue;
            }
            if (count)
            {
                pushCount++;
            }
            final long seq = reserve(peer);
            if (seq < 0)
            {
                continue;
            }
            final boolean signaled = signal(peer);
            final int rc = verbs.postInline(peer, wrId(peer, seq), rowOffset, bytes, signaled);
            posted(peer, seq, signaled, rc, what, rowOffset, bytes.byteSize());
        }
    }

    /** The next sequence number for {@code peer}, waiting (polling) for room in its send queue; -1 if it froze. */
    private long reserve(final int peer)
    {
        if (outstanding(peer) >= config.sendQueueDepth())
        {
            final long startNs = nanoClock.getAsLong();
            while (!frozen[peer] && outstanding(peer) >= config.sendQueueDepth())
            {
                final int polled = verbs.poll(sink);
                if (outstanding(peer) >= config.sendQueueDepth()
                    && nanoClock.getAsLong() - startNs - config.completionTimeoutNs() > 0)
                {
                    fail(peer, "send queue stayed full (" + config.sendQueueDepth() + " requests) for "
                        + config.completionTimeoutNs() / 1_000_000 + " ms");
                }
                else if (0 == polled)
                {
                    Thread.onSpinWait();
                }
            }
            if (frozen[peer])
            {
                return -1;
            }
        }
        return nextSeq[peer]++;
    }

    /** Whether the request about to be posted to {@code peer} (already reserved) must be signaled. */
    private boolean signal(final int peer)
    {
        final boolean fillsQueue = outstanding(peer) >= config.sendQueueDepth();
        if (++sinceSignal[peer] >= config.signalEvery() || fillsQueue)
        {
            sinceSignal[peer] = 0;
            return true;
        }
        return false;
    }

    /** Records a post; the failure text is built only on failure, so the hot path allocates nothing. */
    private void posted(
        final int peer, final long seq, final boolean signaled, final int rc, final String what, final long rowOffset,
        final long lengthBytes)
    {
        if (0 != rc)
        {
            nextSeq[peer] = seq; // nothing went out
            fail(peer, what + " of " + lengthBytes + " bytes at row offset " + rowOffset
                + " could not be posted: errno " + rc);
            return;
        }
        if (signaled)
        {
            final int capacity = signaledSeq[peer].length;
            final int slot = (signaledHead[peer] + signaledCount[peer]) % capacity;
            signaledSeq[peer][slot] = seq;
            signaledAtNs[peer][slot] = nanoClock.getAsLong();
            signaledCount[peer]++;
        }
    }

    private void onCompletion(final long wrId, final int status)
    {
        final int peer = peerOf(wrId);
        if (peer < 0 || peer >= members)
        {
            return;
        }
        if (0 != status)
        {
            if (!frozen[peer])
            {
                fail(peer, "RDMA write completed with error " + Verbs.wcStatusText(status));
            }
            return;
        }
        final long seq = wrId & SEQ_MASK;
        // a signaled completion retires every earlier request on this queue pair
        retiredSeq[peer] = Math.max(retiredSeq[peer], seq + 1);
        final int capacity = signaledSeq[peer].length;
        while (signaledCount[peer] > 0 && signaledSeq[peer][signaledHead[peer]] <= seq)
        {
            signaledHead[peer] = (signaledHead[peer] + 1) % capacity;
            signaledCount[peer]--;
        }
    }

    private void fail(final int peer, final String reason)
    {
        if (!frozen[peer])
        {
            frozen[peer] = true;
            verbs.frozen(peer);
            suspicions.onSuspected(peer, reason);
        }
    }

    private static long wrId(final int peer, final long seq)
    {
        return ((long)peer << PEER_SHIFT) | seq;
    }

    private void checkRange(final long rowOffset, final long lengthBytes)
    {
        if (rowOffset < 0 || lengthBytes < 0 || rowOffset + lengthBytes > myRow.byteSize())
        {
            throw new IndexOutOfBoundsException("row range [" + rowOffset + ", +" + lengthBytes + ") outside a row of "
                + myRow.byteSize() + " bytes");
        }
    }

    private static void checkAligned(final long rowOffset)
    {
        if (0 != (rowOffset & 7))
        {
            throw new IllegalArgumentException("counters and guards are 8-byte aligned, offset " + rowOffset);
        }
    }
}
