package io.sirocco.pubsub.rtps.wire;

import java.nio.ByteBuffer;

/**
 * Interprets one RTPS datagram (DDSI-RTPS 2.5, 8.3.4 and 9.4) and hands its valid submessages to a
 * {@link SubmessageHandler}, without allocating and without throwing on any input: every length is checked before
 * it is used.
 *
 * <p>Validity: a datagram without the "RTPS" header or with a major version other than 2 is dropped whole. A
 * submessage whose length runs past the datagram, or a known submessage whose content is invalid, drops the rest of
 * the datagram (the submessages before it were already delivered): after such a submessage the receiver's state
 * (destination, timestamp) can no longer be trusted. Unknown and vendor-specific submessage ids are skipped, as the
 * spec says, and counted. Every drop is counted in {@link #stats()} by reason and reported through
 * {@link #lastMalformed()}, so the receive loop can log it at a bounded rate.
 *
 * <p>Confined to one thread (the receive loop): the views and the context are reused for every datagram.
 */
public final class RtpsMessageReader
{
    /** Header: "RTPS", version (2), vendor id (2), GuidPrefix (12). */
    public static final int HEADER_LENGTH = 20;
    private static final int MAGIC = 0x5254_5053;

    private final ReceiveContext context = new ReceiveContext();
    private final DataView data = new DataView();
    private final DataFragView dataFrag = new DataFragView();
    private final HeartbeatView heartbeat = new HeartbeatView();
    private final AckNackView ackNack = new AckNackView();
    private final GapView gap = new GapView();
    private final RtpsDecodeStats stats = new RtpsDecodeStats();
    private MalformedReason lastMalformed;
    private int lastMalformedOffset;

    /**
     * Interprets {@code buffer[offset, offset + length)}. Returns the number of submessages handed to the handler,
     * or -1 when the datagram (or its rest) was dropped: {@link #lastMalformed()} says why.
     */
    public int read(final ByteBuffer buffer, final int offset, final int length, final SubmessageHandler handler)
    {
        lastMalformed = null;
        if (offset < 0 || length < HEADER_LENGTH || offset > buffer.limit() - length)
        {
            return reject(MalformedReason.TRUNCATED_HEADER, offset);
        }
        if (WireBytes.int32Be(buffer, offset) != MAGIC)
        {
            return reject(MalformedReason.BAD_MAGIC, offset);
        }
        if (WireBytes.uint8(buffer, offset + 4) != 2)
        {
            return reject(MalformedReason.UNSUPPORTED_VERSION, offset + 4);
        }
        context.reset(2, WireBytes.uint8(buffer, offset + 5), WireBytes.uint16(buffer, offset + 6, false),
            WireBytes.int64Be(buffer, offset + 8), WireBytes.int32Be(buffer, offset + 16));
        final int end = offset + length;
        int position = offset + HEADER_LENGTH;
        int dispatched = 0;
        while (position < end)
        {
            if (end - position < 4)
            {
                return reject(MalformedReason.TRUNCATED_SUBMESSAGE_HEADER, position);
            }
            final int id = WireBytes.uint8(buffer, position);
            final int flags = WireBytes.uint8(buffer, position + 1);
            final int octets = WireBytes.uint16(buffer, position + 2, (flags & SubmessageKind.FLAG_LITTLE_ENDIAN) != 0);
            final int bodyStart = position + 4;
            // 0 means "up to the end of the message", except for PAD and INFO_TS, which may be empty
            final int bodyLength = octets == 0 && id != SubmessageKind.PAD && id != SubmessageKind.INFO_TS
                ? end - bodyStart : octets;
            if (bodyLength > end - bodyStart)
            {
                return reject(MalformedReason.BAD_SUBMESSAGE_LENGTH, position);
            }
            final MalformedReason bad = dispatch(buffer, id, flags, bodyStart, bodyLength, handler);
            if (bad != null)
            {
                return reject(bad, position);
            }
            dispatched++;
            position = bodyStart + bodyLength;
        }
        stats.accepted();
        return dispatched;
    }

    private MalformedReason dispatch(final ByteBuffer b, final int id, final int flags, final int start,
        final int length, final SubmessageHandler handler)
    {
        final MalformedReason bad = switch (id)
        {
            case SubmessageKind.DATA -> onValid(data.wrap(b, start, length, flags), handler, id);
            case SubmessageKind.DATA_FRAG -> onValid(dataFrag.wrap(b, start, length, flags), handler, id);
            case SubmessageKind.HEARTBEAT -> onValid(heartbeat.wrap(b, start, length, flags), handler, id);
            case SubmessageKind.HEARTBEAT_FRAG ->
                onValid(heartbeat.wrapFragment(b, start, length, flags), handler, SubmessageKind.HEARTBEAT);
            case SubmessageKind.ACKNACK -> onValid(ackNack.wrap(b, start, length, flags), handler, id);
            case SubmessageKind.NACK_FRAG ->
                onValid(ackNack.wrapNackFrag(b, start, length, flags), handler, SubmessageKind.ACKNACK);
            case SubmessageKind.GAP -> onValid(gap.wrap(b, start, length, flags), handler, id);
            case SubmessageKind.INFO_TS -> infoTimestamp(b, start, length, flags);
            case SubmessageKind.INFO_DST -> infoDestination(b, start, length);
            case SubmessageKind.INFO_SRC -> infoSource(b, start, length);
            case SubmessageKind.PAD, SubmessageKind.INFO_REPLY, SubmessageKind.INFO_REPLY_IP4 -> null;
            default -> unknown(id);
        };
        if (bad == null)
        {
            stats.submessage();
        }
        return bad;
    }

    private MalformedReason onValid(final MalformedReason reason, final SubmessageHandler handler, final int id)
    {
        if (reason != null)
        {
            return reason;
        }
        switch (id)
        {
            case SubmessageKind.DATA -> handler.onData(context, data);
            case SubmessageKind.DATA_FRAG -> handler.onDataFrag(context, dataFrag);
            case SubmessageKind.HEARTBEAT -> handler.onHeartbeat(context, heartbeat);
            case SubmessageKind.ACKNACK -> handler.onAckNack(context, ackNack);
            default -> handler.onGap(context, gap);
        }
        return null;
    }

    private MalformedReason infoTimestamp(final ByteBuffer b, final int start, final int length, final int flags)
    {
        if ((flags & SubmessageKind.FLAG_INVALIDATE) != 0)
        {
            context.timestamp(ReceiveContext.TIME_INVALID);
            return null;
        }
        if (length < 8)
        {
            return MalformedReason.TRUNCATED_SUBMESSAGE;
        }
        final boolean little = (flags & SubmessageKind.FLAG_LITTLE_ENDIAN) != 0;
        context.timestamp(((long) WireBytes.int32(b, start, little) << 32) | WireBytes.uint32(b, start + 4, little));
        return null;
    }

    private MalformedReason infoDestination(final ByteBuffer b, final int start, final int length)
    {
        if (length < 12)
        {
            return MalformedReason.TRUNCATED_SUBMESSAGE;
        }
        context.destination(WireBytes.int64Be(b, start), WireBytes.int32Be(b, start + 8));
        return null;
    }

    private MalformedReason infoSource(final ByteBuffer b, final int start, final int length)
    {
        if (length < 20)
        {
            return MalformedReason.TRUNCATED_SUBMESSAGE;
        }
        context.source(WireBytes.uint8(b, start + 4), WireBytes.uint8(b, start + 5),
            WireBytes.uint16(b, start + 6, false), WireBytes.int64Be(b, start + 8), WireBytes.int32Be(b, start + 16));
        return null;
    }

    private MalformedReason unknown(final int id)
    {
        stats.unknown(id);
        return null;
    }

    private int reject(final MalformedReason reason, final int at)
    {
        lastMalformed = reason;
        lastMalformedOffset = at;
        stats.countMalformed(reason);
        return -1;
    }

    /** Why the last {@link #read} returned -1, or null when it did not. */
    public MalformedReason lastMalformed()
    {
        return lastMalformed;
    }

    /** The offset in the buffer of the header or submessage that made the last read fail. */
    public int lastMalformedOffset()
    {
        return lastMalformedOffset;
    }

    public RtpsDecodeStats stats()
    {
        return stats;
    }
}
