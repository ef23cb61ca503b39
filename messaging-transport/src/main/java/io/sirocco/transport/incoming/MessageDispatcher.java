package io.sirocco.transport.incoming;

import java.lang.foreign.MemorySegment;

import io.sirocco.transport.idle.IdleStrategy;
import io.sirocco.transport.spi.Connection;
import io.sirocco.transport.spi.IncomingBuffer;

import static io.sirocco.transport.protocol.FrameDescriptor.*;

/**
 * Hands a parsed, whole message to where it is delivered: responses (and everything, with zero handler agents) at
 * once on the parsing thread, ordered messages to their node's handler, unordered ones to an awake handler or the
 * next one round-robin. Waits (with its own idle strategy) while the chosen handler's queue is full.
 *
 * <p>Confined to the parsing thread (the coordinator, or the inline lock holder): {@code roundRobin} and the
 * importer are plain fields; each handler queue has this thread as its only producer.
 */
final class MessageDispatcher
{
    private final InboundDelivery delivery;
    private final MessageDeliverer deliverer;
    private final HandlerAgent[] handlers;
    private final IdleStrategy pushIdle;
    private final SegmentImporter importer = new SegmentImporter();
    private int roundRobin;

    MessageDispatcher(final InboundDelivery delivery, final MessageDeliverer deliverer, final HandlerAgent[] handlers,
        final IdleStrategy pushIdle)
    {
        this.delivery = delivery;
        this.deliverer = deliverer;
        this.handlers = handlers;
        this.pushIdle = pushIdle;
    }

    void dispatch(final Connection connection, final int flags, final int type, final int subtype,
        final int requestId, final IncomingBuffer owner, final MemorySegment segment, final long offset,
        final int payload)
    {
        final int kind = kind(flags);
        if (kind == KIND_PADDING)
        {
            return;
        }
        if (!delivery.accepts(kind, type, subtype))
        {
            delivery.protocolError(connection, "unknown message type (" + type + ", " + subtype + ")" +
                (kind == KIND_RESPONSE ? " for a response" : ""));
            return;
        }
        final InboundMessage message = deliverer.acquire();
        message.connection = connection;
        message.buffer = owner;
        message.segment = segment;
        message.offset = offset;
        message.length = payload;
        message.flags = flags;
        message.type = type;
        message.subtype = subtype;
        message.requestId = requestId;
        owner.retain();
        if (kind == KIND_RESPONSE || handlers.length == 0)
        {
            deliverer.deliverNow(message, importer);
            return;
        }
        final HandlerAgent handler = (flags & FLAG_ORDERED) != 0 ?
            handlers[connection.nodeId() % handlers.length] : unorderedHandler();
        if (!handler.offer(message))
        {
            pushIdle.reset();
            while (!handler.offer(message))
            {
                pushIdle.idle();
            }
        }
    }

    /**
     * The handler for an unordered message: the one that took the previous unordered message if it is still awake
     * and idle (it is spinning before it parks, so it needs no wake-up), otherwise the next one round-robin.
     */
    private HandlerAgent unorderedHandler()
    {
        final HandlerAgent last = handlers[roundRobin % handlers.length];
        if (last.idleAndAwake())
        {
            return last;
        }
        roundRobin = (roundRobin + 1) & 0x7FFF_FFFF;
        return handlers[roundRobin % handlers.length];
    }
}
