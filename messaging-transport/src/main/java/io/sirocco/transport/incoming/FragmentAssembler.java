package io.sirocco.transport.incoming;

import java.lang.foreign.MemorySegment;

import io.sirocco.transport.spi.BufferPool;
import io.sirocco.transport.spi.Connection;
import io.sirocco.transport.spi.IncomingBuffer;

import static io.sirocco.transport.protocol.FrameDescriptor.*;

/**
 * Reassembles a fragmented message: the first fragment announces the total length (its first 4 payload bytes) and
 * takes one pooled buffer of that size; each fragment's payload is copied into it; the last one dispatches the
 * whole message. A padding fragment means the sender's export failed: the message is dropped. Any fragment out of
 * order, or a length that does not add up, is a protocol error.
 *
 * <p>Confined to the parsing thread; the reassembly state lives in the connection's {@link ReceiveState}.
 */
final class FragmentAssembler
{
    private final BufferPool pool;
    private final InboundDelivery delivery;
    private final MessageDispatcher dispatcher;
    private final int maxMessageBytes;

    FragmentAssembler(final BufferPool pool, final InboundDelivery delivery, final MessageDispatcher dispatcher,
        final int maxMessageBytes)
    {
        this.pool = pool;
        this.delivery = delivery;
        this.dispatcher = dispatcher;
        this.maxMessageBytes = maxMessageBytes;
    }

    void fragment(final Connection connection, final ReceiveState state, final int flags, final int type,
        final int subtype, final int requestId, final MemorySegment segment, final long offset, final int payload)
    {
        long from = offset;
        int chunk = payload;
        if ((flags & FLAG_FIRST) != 0)
        {
            if (!begin(connection, state, segment, offset, payload))
            {
                return;
            }
            from += 4;
            chunk -= 4;
        }
        else if (state.assembly == null)
        {
            delivery.protocolError(connection, "fragment out of order: no first fragment");
            return;
        }
        if (kind(flags) == KIND_PADDING)
        {
            state.assembly.release(); // the sender's export failed: drop the whole message
            state.assembly = null;
            return;
        }
        if (chunk > state.assemblyLength - state.assemblyFill)
        {
            delivery.protocolError(connection, "fragments exceed the announced length " + state.assemblyLength);
            return;
        }
        MemorySegment.copy(segment, from, state.assembly.segment(), state.assemblyFill, chunk);
        state.assemblyFill += chunk;
        if ((flags & FLAG_LAST) != 0)
        {
            complete(connection, state, flags, type, subtype, requestId);
        }
    }

    /** A first fragment: checks it and takes the reassembly buffer; false after a protocol error. */
    private boolean begin(final Connection connection, final ReceiveState state, final MemorySegment segment,
        final long offset, final int payload)
    {
        if (state.assembly != null || payload < 4)
        {
            delivery.protocolError(connection, state.assembly != null ?
                "fragment out of order: a new first fragment while one message is being reassembled" :
                "bad first fragment length " + payload);
            return false;
        }
        final int total = segment.get(INT, offset);
        if (total <= 0 || total > maxMessageBytes)
        {
            delivery.protocolError(connection, "bad fragmented message length " + total + " (limit " + maxMessageBytes + ")");
            return false;
        }
        state.assembly = pool.acquire(total);
        state.assemblyFill = 0;
        state.assemblyLength = total;
        return true;
    }

    private void complete(final Connection connection, final ReceiveState state, final int flags, final int type,
        final int subtype, final int requestId)
    {
        final IncomingBuffer assembly = state.assembly;
        state.assembly = null;
        try
        {
            if (state.assemblyFill != state.assemblyLength)
            {
                delivery.protocolError(connection, "fragmented message ended after " + state.assemblyFill +
                    " of " + state.assemblyLength + " bytes");
                return;
            }
            dispatcher.dispatch(connection, flags & (KIND_MASK | FLAG_ORDERED), type, subtype, requestId, assembly,
                assembly.segment(), 0, state.assemblyLength);
        }
        finally
        {
            assembly.release();
        }
    }
}
