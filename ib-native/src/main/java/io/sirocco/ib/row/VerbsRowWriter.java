package io.sirocco.ib.row;

import java.lang.foreign.MemorySegment;

import io.sirocco.ib.verbs.CompletionQueue;
import io.sirocco.ib.verbs.MemoryRegion;
import io.sirocco.ib.verbs.QueuePair;
import io.sirocco.ib.verbs.Verbs;
import io.sirocco.ib.verbs.VerbsException;

/**
 * {@link RowWriteVerbs} over real queue pairs: a thin, allocation-free adapter that turns the planner's row offsets
 * into local and remote addresses. Hardware-verified only (no RDMA device in CI); the decisions it executes are the
 * planner's, which are unit-tested. Used by the pushing thread only.
 */
final class VerbsRowWriter implements RowWriteVerbs
{
    private final QueuePair[] queuePairs;
    private final CompletionQueue cq;
    private final long localRowAddress;
    private final int lkey;
    private final long[] remoteRowAddress;
    private final int[] rkeys;
    private final CompletionQueue.CompletionHandler handler = this::onCompletion;
    private CompletionSink sink;

    /**
     * @param queuePairs       by peer rank ({@code null} at this member's rank)
     * @param table            the registered local table
     * @param myRowOffset      where this member's row starts in the table
     * @param remoteRowAddress by peer rank: the address of this member's row in that peer's table
     * @param rkeys            by peer rank: that peer's table rkey
     */
    VerbsRowWriter(
        final QueuePair[] queuePairs, final CompletionQueue cq, final MemoryRegion table, final long myRowOffset,
        final long[] remoteRowAddress, final int[] rkeys)
    {
        this.queuePairs = queuePairs;
        this.cq = cq;
        this.localRowAddress = table.address() + myRowOffset;
        this.lkey = table.lkey();
        this.remoteRowAddress = remoteRowAddress;
        this.rkeys = rkeys;
    }

    @Override
    public int postWrite(final int peer, final long wrId, final long rowOffset, final int lengthBytes,
        final boolean signaled)
    {
        return queuePairs[peer].postWrite(wrId, localRowAddress + rowOffset, lengthBytes, lkey,
            remoteRowAddress[peer] + rowOffset, rkeys[peer], signaled ? Verbs.SEND_SIGNALED : 0);
    }

    @Override
    public int postInline(final int peer, final long wrId, final long rowOffset, final MemorySegment bytes,
        final boolean signaled)
    {
        return queuePairs[peer].postInline(wrId, bytes, remoteRowAddress[peer] + rowOffset, rkeys[peer],
            signaled ? Verbs.SEND_SIGNALED : 0);
    }

    @Override
    public int poll(final CompletionSink sink)
    {
        this.sink = sink;
        return cq.poll(handler);
    }

    @Override
    public void frozen(final int peer)
    {
        try
        {
            queuePairs[peer].toError(); // flushes what is queued; its flush errors are ignored by the planner
        }
        catch (final VerbsException ex)
        {
            // already in error, or the device is gone: either way nothing more is sent
        }
    }

    private void onCompletion(
        final long wrId, final int status, final int opcode, final int byteLen, final int immData, final int qpNum,
        final int wcFlags)
    {
        sink.onCompletion(wrId, status);
    }
}
