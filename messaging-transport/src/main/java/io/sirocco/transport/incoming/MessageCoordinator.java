package io.sirocco.transport.incoming;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import io.sirocco.transport.TransportContext;
import io.sirocco.transport.agent.Agents;
import io.sirocco.transport.concurrent.MpmcArrayQueue;
import io.sirocco.transport.idle.Doorbell;
import io.sirocco.transport.idle.IdleStrategy;
import io.sirocco.transport.spi.BufferPool;
import io.sirocco.transport.spi.Connection;
import io.sirocco.transport.spi.IncomingBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.NoOpIdleStrategy;

/**
 * The message creation coordinator: the one thread that takes receive buffers from the incoming buffer queue in
 * order, has the {@link FrameParser} parse and validate every frame with the connection's {@link ReceiveState}, and
 * the {@link MessageDispatcher} hand each message to a handler agent (responses and, with zero handler agents,
 * everything are delivered on the parsing thread directly).
 *
 * <p>It is an agent ({@link Agents#start}, role {@code node<id>-coordinator}) with a no-op idle strategy: each duty
 * cycle is one pass of the loop it always was (take a buffer, run the periodic task when due, or idle and park on
 * the doorbell that {@link #push} rings), so its timing is unchanged. In inline mode the pushing thread parses
 * (try-lock, {@link #drainInline}) and the agent only runs the periodic task and drains what a pusher left.
 *
 * <p>Queue: many producers (transport threads), one consumer (this thread or the inline lock holder); the queue's
 * release/acquire publishes the buffer contents. Handler queues: the parsing thread is their only producer. Steady
 * state allocates nothing: descriptors and buffers are pooled.
 */
public final class MessageCoordinator implements Agent
{
    private final MpmcArrayQueue<IncomingBuffer> incomingQueue;
    private final Doorbell doorbell = new Doorbell();
    private final InboundDelivery delivery;
    private final HandlerAgent[] handlers;
    private final FrameParser parser;
    private final IdleStrategy idle;
    private final long parkNs;
    private final Runnable periodicTask;
    private final long periodNs;
    private final String role;
    private long nextPeriodicNs;
    private final boolean inline;
    private final AtomicBoolean processing = new AtomicBoolean();
    private AgentRunner runner;
    private volatile boolean running = true;

    public MessageCoordinator(final TransportContext context, final BufferPool pool, final InboundDelivery delivery,
        final Runnable periodicTask, final long periodNs)
    {
        this.incomingQueue = new MpmcArrayQueue<>(context.incomingQueueCapacity());
        this.delivery = delivery;
        this.idle = context.newIdleStrategy();
        this.parkNs = context.idleMaxParkNs();
        this.periodicTask = periodicTask;
        this.periodNs = periodNs;
        this.inline = context.inlineCoordinator();
        final String prefix = "node" + context.ownNodeId() + "-";
        this.role = prefix + "coordinator";
        final MessageDeliverer deliverer = new MessageDeliverer(delivery);
        this.handlers = new HandlerAgent[context.handlerThreads()];
        for (int i = 0; i < handlers.length; i++)
        {
            handlers[i] = new HandlerAgent(prefix + "handler-" + i, context.handlerQueueCapacity(), deliverer,
                context.newIdleStrategy(), parkNs, context.handlerSpinNs());
        }
        final MessageDispatcher dispatcher =
            new MessageDispatcher(delivery, deliverer, handlers, context.newIdleStrategy());
        this.parser = new FrameParser(pool, delivery, dispatcher, context.maxMessageBytes());
    }

    public void start()
    {
        for (final HandlerAgent handler : handlers)
        {
            handler.start();
        }
        runner = Agents.start(this, NoOpIdleStrategy.INSTANCE);
    }

    public void stop() throws InterruptedException
    {
        running = false;
        if (runner != null)
        {
            final Thread thread = runner.thread();
            if (thread != null)
            {
                LockSupport.unpark(thread);
            }
            runner.close();
        }
        for (final HandlerAgent handler : handlers)
        {
            handler.stop();
        }
        for (final HandlerAgent handler : handlers)
        {
            handler.join();
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
                    LockSupport.parkNanos(20_000);
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
    public String roleName()
    {
        return role;
    }

    @Override
    public void onStart()
    {
        doorbell.owner(Thread.currentThread());
        nextPeriodicNs = System.nanoTime() + periodNs;
    }

    @Override
    public int doWork()
    {
        if (!running)
        {
            return 0;
        }
        if (inline)
        {
            drainInline();
            periodicTask.run();
            doorbell.prepareToPark();
            doorbell.park(periodNs);
            return 0;
        }
        final IncomingBuffer buffer = incomingQueue.poll();
        if (buffer != null)
        {
            idle.reset();
            process(buffer);
            return 1;
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
        return 0;
    }

    /** The connection's parsing state, created on its first buffer; only this thread touches it. */
    private static ReceiveState receiveState(final Connection connection)
    {
        if (connection.receiveAttachment() instanceof ReceiveState state)
        {
            return state;
        }
        final ReceiveState state = new ReceiveState();
        connection.receiveAttachment(state);
        return state;
    }

    private void process(final IncomingBuffer buffer)
    {
        final Connection connection = buffer.connection();
        final ReceiveState state = receiveState(connection);
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
            parser.parse(connection, state, buffer);
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
}
