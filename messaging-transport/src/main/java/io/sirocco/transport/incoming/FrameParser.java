package io.sirocco.transport.incoming;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import io.sirocco.transport.spi.BufferPool;
import io.sirocco.transport.spi.Connection;
import io.sirocco.transport.spi.IncomingBuffer;

import static io.sirocco.transport.protocol.FrameDescriptor.*;

/**
 * Parses the frames of one receive buffer with the connection's {@link ReceiveState}: validates each header, applies
 * credit frames, skips padding, and dispatches whole frames. A frame whose header or payload is cut by the end of
 * the buffer is completed from the next buffer of the same connection: the header in the state's small array, the
 * payload copied into one pooled buffer (the only copy on the receive path, and only for split frames). Fragments go
 * to the {@link FragmentAssembler}. A bad header is a protocol error and ends the buffer's parse.
 *
 * <p>Confined to the parsing thread (the coordinator, or the inline lock holder); allocates nothing per frame.
 */
final class FrameParser
{
    /** {@link #onHeader} returns it when parsing of the buffer stops (after a protocol error). */
    private static final int STOP = -1;

    private final BufferPool pool;
    private final InboundDelivery delivery;
    private final MessageDispatcher dispatcher;
    private final FragmentAssembler assembler;
    private final int maxMessageBytes;

    FrameParser(final BufferPool pool, final InboundDelivery delivery, final MessageDispatcher dispatcher,
        final int maxMessageBytes)
    {
        this.pool = pool;
        this.delivery = delivery;
        this.dispatcher = dispatcher;
        this.assembler = new FragmentAssembler(pool, delivery, dispatcher, maxMessageBytes);
        this.maxMessageBytes = maxMessageBytes;
    }

    void parse(final Connection connection, final ReceiveState state, final IncomingBuffer buffer)
    {
        final MemorySegment segment = buffer.segment();
        final int length = buffer.length();
        int offset = 0;
        while (offset < length && !connection.isClosed())
        {
            if (state.skipRemaining > 0)
            {
                final int n = Math.min(state.skipRemaining, length - offset);
                state.skipRemaining -= n;
                offset += n;
                continue;
            }
            if (state.split != null)
            {
                offset = continueSplit(connection, state, segment, offset, length);
                continue;
            }
            final MemorySegment headerSegment;
            final long headerOffset;
            if (state.headerFill > 0 || length - offset < HEADER_LENGTH)
            {
                final int n = Math.min(HEADER_LENGTH - state.headerFill, length - offset);
                MemorySegment.copy(segment, offset, state.headerSegment, state.headerFill, n);
                state.headerFill += n;
                offset += n;
                if (state.headerFill < HEADER_LENGTH)
                {
                    return; // the rest of the header is in the next buffer
                }
                state.headerFill = 0;
                headerSegment = state.headerSegment;
                headerOffset = 0;
            }
            else
            {
                headerSegment = segment;
                headerOffset = offset;
                offset += HEADER_LENGTH;
            }
            offset = onHeader(connection, state, buffer, headerSegment, headerOffset, offset);
            if (offset == STOP)
            {
                return;
            }
        }
        state.streamBytes += length;
    }

    /** Copies the next part of a split frame's payload; dispatches the frame once it is whole. */
    private int continueSplit(final Connection connection, final ReceiveState state, final MemorySegment segment,
        final int offset, final int length)
    {
        final int n = Math.min(length - offset, state.splitLength - state.splitFill);
        MemorySegment.copy(segment, offset, state.split.segment(), state.splitFill, n);
        state.splitFill += n;
        if (state.splitFill == state.splitLength)
        {
            final IncomingBuffer split = state.split;
            state.split = null;
            try
            {
                frame(connection, state, state.splitFlags, state.splitType, state.splitSubtype,
                    state.splitRequestId, split, split.segment(), 0, state.splitLength);
            }
            finally
            {
                split.release();
            }
        }
        return offset + n;
    }

    /**
     * Acts on one frame header ({@code offset} is just past it): validates it, applies a credit frame, starts a
     * padding skip, or dispatches (or starts splitting) the frame.
     *
     * @return the offset after what was consumed, or {@link #STOP} after a protocol error.
     */
    private int onHeader(final Connection connection, final ReceiveState state, final IncomingBuffer buffer,
        final MemorySegment headerSegment, final long headerOffset, final int offset)
    {
        final MemorySegment segment = buffer.segment();
        final int length = buffer.length();
        final byte magic = headerSegment.get(ValueLayout.JAVA_BYTE, headerOffset + MAGIC_OFFSET);
        final int flags = headerSegment.get(ValueLayout.JAVA_BYTE, headerOffset + FLAGS_OFFSET) & 0xFF;
        final int type = headerSegment.get(ValueLayout.JAVA_BYTE, headerOffset + TYPE_OFFSET) & 0xFF;
        final int subtype = headerSegment.get(ValueLayout.JAVA_BYTE, headerOffset + SUBTYPE_OFFSET) & 0xFF;
        final int requestId = headerSegment.get(INT, headerOffset + REQUEST_ID_OFFSET);
        final int payload = headerSegment.get(INT, headerOffset + PAYLOAD_LENGTH_OFFSET);
        final String error = validate(magic, flags, payload);
        if (error != null)
        {
            delivery.protocolError(connection, error + " at stream byte " + (state.streamBytes + offset - HEADER_LENGTH));
            return STOP;
        }
        if (kind(flags) == KIND_PADDING && (flags & FLAG_FRAGMENT) == 0)
        {
            if (type == CREDIT_TYPE && payload == 0)
            {
                if (requestId <= 0)
                {
                    delivery.protocolError(connection, "bad credit frame (" + requestId + " credits) at stream byte " +
                        (state.streamBytes + offset - HEADER_LENGTH));
                    return STOP;
                }
                connection.flowControl().uncount(HEADER_LENGTH);
                connection.flowControl().onCredits(requestId);
                return offset;
            }
            state.skipRemaining = payload;
            return offset;
        }
        if (length - offset >= payload)
        {
            frame(connection, state, flags, type, subtype, requestId, buffer, segment, offset, payload);
            return offset + payload;
        }
        final IncomingBuffer split = pool.acquire(payload);
        final int n = length - offset;
        MemorySegment.copy(segment, offset, split.segment(), 0, n);
        state.split = split;
        state.splitFill = n;
        state.splitLength = payload;
        state.splitFlags = flags;
        state.splitType = type;
        state.splitSubtype = subtype;
        state.splitRequestId = requestId;
        return offset + n;
    }

    private String validate(final byte magic, final int flags, final int payload)
    {
        if (magic != MAGIC)
        {
            return String.format("bad magic byte 0x%02x (expected 0x%02x)", magic & 0xFF, MAGIC & 0xFF);
        }
        if ((flags & FLAGS_RESERVED) != 0)
        {
            return String.format("bad flags 0x%02x", flags);
        }
        if (payload < 0 || payload > maxMessageBytes)
        {
            return "bad payload length " + payload + " (limit " + maxMessageBytes + ")";
        }
        if ((flags & FLAG_FRAGMENT) == 0 && (flags & (FLAG_FIRST | FLAG_LAST)) != 0)
        {
            return String.format("bad flags 0x%02x (fragment bits on a whole frame)", flags);
        }
        return null;
    }

    private void frame(final Connection connection, final ReceiveState state, final int flags, final int type,
        final int subtype, final int requestId, final IncomingBuffer owner, final MemorySegment segment,
        final long offset, final int payload)
    {
        if ((flags & FLAG_FRAGMENT) != 0)
        {
            assembler.fragment(connection, state, flags, type, subtype, requestId, segment, offset, payload);
            return;
        }
        dispatcher.dispatch(connection, flags, type, subtype, requestId, owner, segment, offset, payload);
    }
}
