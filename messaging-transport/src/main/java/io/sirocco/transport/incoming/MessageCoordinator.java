package io.sirocco.transport.incoming;

import io.sirocco.transport.TransportContext;
import io.sirocco.transport.concurrent.MpmcArrayQueue;
import io.sirocco.transport.idle.Doorbell;
import io.sirocco.transport.idle.IdleStrategy;
import io.sirocco.transport.spi.Connection;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static io.sirocco.transport.protocol.FrameDescriptor.*;

/**
 * The message creation coordinator: the one thread that takes receive buffers from the incoming buffer queue in
 * order, parses every frame header with the connection's {@link ReceiveState}, validates it, and hands each
 * message to a handler thread (responses and, with zero handler threads, everything are delivered here directly).
 *
 * <p>A frame whose header or payload is cut by the end of a buffer is completed from the next buffer of the same
 * connection: the header in a small per-connection array, the payload copied into one pooled buffer (the only copy
 * on the receive path, and only for split frames). Fragments of a large message are reassembled likewise.
 *
 * <p>Queue: many producers (transport threads), one consumer (this thread); the queue's release/acquire publishes
 * the buffer contents. Handler queues: this thread is their only producer. Steady state allocates nothing:
 * descriptors and buffers are pooled.
 */
public final class MessageCoordinator implements Runnable
{
    private final MpmcArrayQueue<IncomingBuffer> incomingQueue;
    private final MpmcArrayQueue<InboundMessage> freeMessages = new MpmcArrayQueue<>(1 << 14);
    private final Doorbell doorbell = new Doorbell();
    private final BufferPool pool;
    private final InboundDelivery delivery;
    private final HandlerThread[] handlers;
    private final IdleStrategy idle;
    private final IdleStrategy pushIdle;
    private final long parkNs;
    private final int maxMessageBytes;
    private final SegmentImporter importer = new SegmentImporter();
    private final Runnable periodicTask;
    private final long periodNs;
    private final Thread thread;
    private long nextPeriodicNs;
    private int roundRobin;
    private final boolean inline;
    private final java.util.concurrent.atomic.AtomicBoolean processing = new java.util.concurrent.atomic.AtomicBoolean();
    private volatile boolean running = true;

    public MessageCoordinator(final TransportContext context, final BufferPool pool, final InboundDelivery delivery,
        final Runnable periodicTask, final long periodNs)
    {
        this.incomingQueue = new MpmcArrayQueue<>(context.incomingQueueCapacity());
        this.pool = pool;
        this.delivery = delivery;
        this.idle = context.newIdleStrategy();
        this.pushIdle = context.newIdleStrategy();
        this.parkNs = context.idleMaxParkNs();
        this.maxMessageBytes = context.maxMessageBytes();
        this.periodicTask = periodicTask;
        this.periodNs = periodNs;
        this.inline = context.inlineCoordinator();
        final String prefix = "sirocco-node" + context.ownNodeId() + "-";
        this.thread = new Thread(this, prefix + "coordinator");
        this.thread.setDaemon(true);
        doorbell.owner(thread);
        this.handlers = new HandlerThread[context.handlerThreads()];
        for (int i = 0; i < handlers.length; i++)
        {
            handlers[i] = new HandlerThread(prefix + "handler-" + i, context.handlerQueueCapacity(), this,
                context.newIdleStrategy(), parkNs, context.handlerSpinNs());
        }
        for (int i = 0; i < 1024; i++)
        {
            freeMessages.offer(new InboundMessage());
        }
    }

    public void start()
    {
        for (final HandlerThread handler : handlers)
        {
            handler.start();
        }
        thread.start();
    }

    public void stop() throws InterruptedException
    {
        running = false;
        java.util.concurrent.locks.LockSupport.unpark(thread);
        thread.join(5_000);
        for (final HandlerThread handler : handlers)
        {
            handler.stop();
        }
        for (final HandlerThread handler : handlers)
        {
            handler.join(5_000);
        }
    }

    /** Paper operation 3's queue: any transport thread; waits while the queue is full. */
    public void push(final IncomingBuffer buffer)
    {
        if (!incomingQueue.offer(buffer))
        {
            int spins = 0;
            while (!incomingQueue.offer(buffer))
            {
                if (++spins > 100)
                {
                    java.util.concurrent.locks.LockSupport.parkNanos(20_000);
                }
                else
                {
                    Thread.onSpinWait();
                }
            }
        }
        if (inline)
        {
            drainInline();
        }
        else
        {
            doorbell.ring();
        }
    }

    /**
     * Inline mode: the pushing thread plays coordinator if no other thread does (try-lock, never blocks). Buffers
     * stay in queue order because only the lock holder takes them, and it re-checks the queue after unlocking so a
     * buffer queued meanwhile is never stranded.
     */
    private void drainInline()
    {
        do
        {
            if (!processing.compareAndSet(false, true))
            {
                return; // the holder (perhaps this very thread, further up the stack) takes it
            }
            try
            {
                IncomingBuffer buffer;
                while ((buffer = incomingQueue.poll()) != null)
                {
                    process(buffer);
                }
            }
            finally
            {
                processing.set(false);
            }
        }
        while (!incomingQueue.isEmpty());
    }

    @Override
    public void run()
    {
        nextPeriodicNs = System.nanoTime() + periodNs;
        while (running && inline)
        {
            drainInline();
            periodicTask.run();
            doorbell.prepareToPark();
            doorbell.park(periodNs);
        }
        while (running)
        {
            final IncomingBuffer buffer = incomingQueue.poll();
            if (buffer != null)
            {
                idle.reset();
                process(buffer);
                continue;
            }
            final long nowNs = System.nanoTime();
            if (nowNs - nextPeriodicNs >= 0)
            {
                nextPeriodicNs = nowNs + periodNs;
                periodicTask.run();
            }
            if (idle.parking())
            {
                doorbell.prepareToPark();
                doorbell.park(incomingQueue.isEmpty() ? Math.min(parkNs, periodNs) : 0);
            }
            else
            {
                idle.idle();
            }
        }
    }

    private void process(final IncomingBuffer buffer)
    {
        final Connection connection = buffer.connection();
        final ReceiveState state = connection.receiveState();
        final String endReason = buffer.endOfStreamReason();
        if (endReason != null)
        {
            final boolean truncated = state.midFrame() && !connection.isClosed();
            final String where = truncated ? state.position() : null;
            state.clear();
            if (truncated)
            {
                delivery.protocolError(connection, "truncated frame: stream ended after " + where + " (" + endReason + ")");
            }
            delivery.streamEnded(connection, endReason);
            return;
        }
        try
        {
            if (connection.isClosed())
            {
                state.clear();
                return;
            }
            if (connection.flowControl().onReceived(buffer.length()))
            {
                delivery.creditsPending(connection);
            }
            parse(connection, state, buffer);
            if (connection.isClosed())
            {
                state.clear();
            }
        }
        finally
        {
            buffer.release();
        }
    }

    private void parse(final Connection connection, final ReceiveState state, final IncomingBuffer buffer)
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
                final int n = Math.min(length - offset, state.splitLength - state.splitFill);
                MemorySegment.copy(segment, offset, state.split.segment(), state.splitFill, n);
                state.splitFill += n;
                offset += n;
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
                return;
            }
            if (kind(flags) == KIND_PADDING && (flags & FLAG_FRAGMENT) == 0)
            {
                if (type == CREDIT_TYPE && payload == 0)
                {
                    if (requestId <= 0)
                    {
                        delivery.protocolError(connection, "bad credit frame (" + requestId + " credits) at stream byte " +
                            (state.streamBytes + offset - HEADER_LENGTH));
                        return;
                    }
                    connection.flowControl().uncount(HEADER_LENGTH);
                    connection.flowControl().onCredits(requestId);
                    continue;
                }
                state.skipRemaining = payload;
                continue;
            }
            if (length - offset >= payload)
            {
                frame(connection, state, flags, type, subtype, requestId, buffer, segment, offset, payload);
                offset += payload;
            }
            else
            {
                final IncomingBuffer split = pool.acquire(payload);
                final int n = length - offset;
                MemorySegment.copy(segment, offset, split.segment(), 0, n);
                offset += n;
                state.split = split;
                state.splitFill = n;
                state.splitLength = payload;
                state.splitFlags = flags;
                state.splitType = type;
                state.splitSubtype = subtype;
                state.splitRequestId = requestId;
            }
        }
        state.streamBytes += length;
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
            fragment(connection, state, flags, type, subtype, requestId, segment, offset, payload);
            return;
        }
        dispatch(connection, flags, type, subtype, requestId, owner, segment, offset, payload);
    }

    private void fragment(final Connection connection, final ReceiveState state, final int flags, final int type,
        final int subtype, final int requestId, final MemorySegment segment, final long offset, final int payload)
    {
        long from = offset;
        int chunk = payload;
        if ((flags & FLAG_FIRST) != 0)
        {
            if (state.assembly != null || payload < 4)
            {
                delivery.protocolError(connection, state.assembly != null ?
                    "fragment out of order: a new first fragment while one message is being reassembled" :
                    "bad first fragment length " + payload);
                return;
            }
            final int total = segment.get(INT, offset);
            if (total <= 0 || total > maxMessageBytes)
            {
                delivery.protocolError(connection, "bad fragmented message length " + total + " (limit " + maxMessageBytes + ")");
                return;
            }
            state.assembly = pool.acquire(total);
            state.assemblyFill = 0;
            state.assemblyLength = total;
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
                dispatch(connection, flags & (KIND_MASK | FLAG_ORDERED), type, subtype, requestId, assembly,
                    assembly.segment(), 0, state.assemblyLength);
            }
            finally
            {
                assembly.release();
            }
        }
    }

    private void dispatch(final Connection connection, final int flags, final int type, final int subtype,
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
        InboundMessage message = freeMessages.poll();
        if (message == null)
        {
            message = new InboundMessage();
        }
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
            deliverNow(message, importer);
            return;
        }
        final HandlerThread handler = (flags & FLAG_ORDERED) != 0 ?
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
    private HandlerThread unorderedHandler()
    {
        final HandlerThread last = handlers[roundRobin % handlers.length];
        if (last.idleAndAwake())
        {
            return last;
        }
        roundRobin = (roundRobin + 1) & 0x7FFF_FFFF;
        return handlers[roundRobin % handlers.length];
    }

    /** Delivers one message and recycles it (handler threads, or this thread). */
    void deliverNow(final InboundMessage message, final SegmentImporter importer)
    {
        try
        {
            if (!message.connection.isClosed())
            {
                final String malformed = delivery.deliver(message, importer);
                if (malformed != null)
                {
                    delivery.protocolError(message.connection, malformed);
                }
            }
        }
        finally
        {
            importer.release();
            message.buffer.release();
            message.clear();
            freeMessages.offer(message);
        }
    }
}
