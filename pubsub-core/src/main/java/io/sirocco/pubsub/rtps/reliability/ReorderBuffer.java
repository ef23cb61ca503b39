package io.sirocco.pubsub.rtps.reliability;

import java.nio.ByteBuffer;

import io.sirocco.pubsub.rtps.wire.DataView;
import io.sirocco.pubsub.rtps.wire.ReceiveContext;

/**
 * Copies of the DATA submessages that arrived ahead of the next sequence number a reliable reader may deliver, kept
 * until the gap before them is filled or declared irrelevant. One slot per number of the {@link SequenceWindow}
 * (slot {@code sn mod 256}): the held numbers always lie within one window, so slots never collide. A slot's buffer
 * and context are made the first time it is used and reused after (a buffer grows only for a larger sample), so
 * holding allocates nothing in the steady state; at most 256 samples are held per remote writer.
 *
 * <p>Not thread-safe: owned by one {@link WriterProxy}, on the RTPS agent's thread.
 */
final class ReorderBuffer
{
    private static final int SLOTS = SequenceWindow.BITS;
    private static final long EMPTY = 0; // sequence numbers start at 1

    private final long[] heldSn = new long[SLOTS];
    private final int[] offset = new int[SLOTS];
    private final int[] length = new int[SLOTS];
    private final int[] flags = new int[SLOTS];
    private final ByteBuffer[] bytes = new ByteBuffer[SLOTS];
    private final ReceiveContext[] contexts = new ReceiveContext[SLOTS];
    private final DataView view = new DataView();
    private int held;

    /** Keeps a copy of {@code data} (number {@code sn}) and its context. */
    void hold(final long sn, final ReceiveContext context, final DataView data)
    {
        final int slot = (int) (sn & (SLOTS - 1));
        if (heldSn[slot] == EMPTY)
        {
            held++;
        }
        heldSn[slot] = sn;
        bytes[slot] = data.copyTo(bytes[slot]);
        offset[slot] = data.copyOffset();
        length[slot] = data.bodyLength();
        flags[slot] = data.flags();
        if (contexts[slot] == null)
        {
            contexts[slot] = new ReceiveContext();
        }
        contexts[slot].copyFrom(context);
    }

    /** Delivers number {@code sn} to {@code listener} and frees its slot, if it is held; else does nothing. */
    void release(final long sn, final InOrderListener listener)
    {
        final int slot = (int) (sn & (SLOTS - 1));
        if (heldSn[slot] != sn)
        {
            return;
        }
        heldSn[slot] = EMPTY;
        held--;
        view.rewrap(bytes[slot], offset[slot], length[slot], flags[slot]);
        listener.onSample(contexts[slot], view);
    }

    /** How many samples are held. */
    int held()
    {
        return held;
    }
}
