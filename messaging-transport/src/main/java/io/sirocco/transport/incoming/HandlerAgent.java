package io.sirocco.transport.incoming;

import java.util.concurrent.locks.LockSupport;

import io.sirocco.transport.agent.Agents;
import io.sirocco.transport.concurrent.MpmcArrayQueue;
import io.sirocco.transport.idle.Doorbell;
import io.sirocco.transport.idle.IdleStrategy;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A message handler agent: takes parsed messages from its own queue (single producer: the coordinator), delivers
 * them, releases their buffers and recycles the descriptors. Ordered messages of one node always go to the same
 * handler, so they are delivered in stream order. After its queue runs empty it spins up to {@code handlerSpinNs},
 * then follows its idle strategy (yield, then park until the coordinator rings its doorbell).
 *
 * <p>Runs through {@link Agents#start} with a no-op idle strategy: each duty cycle is one pass of the loop it always
 * was (take a message, or spin, or idle and park on the doorbell), so spin, yield and park timings are unchanged.
 * The doorbell's owner is the agent's thread, set in {@link #onStart()}; a ring before that finds it unarmed.
 */
final class HandlerAgent implements Agent
{
    private static final Logger LOG = LoggerFactory.getLogger(HandlerAgent.class);

    private final String role;
    private final MpmcArrayQueue<InboundMessage> queue;
    private final Doorbell doorbell = new Doorbell();
    private final MessageDeliverer deliverer;
    private final IdleStrategy idle;
    private final long parkNs;
    private final long spinNs;
    private final SegmentImporter importer = new SegmentImporter();
    private AgentRunner runner;
    private long lastWorkNs;
    private volatile boolean running = true;

    HandlerAgent(final String role, final int capacity, final MessageDeliverer deliverer, final IdleStrategy idle,
        final long parkNs, final long spinNs)
    {
        this.role = role;
        this.spinNs = spinNs;
        this.queue = new MpmcArrayQueue<>(capacity);
        this.deliverer = deliverer;
        this.idle = idle;
        this.parkNs = parkNs;
    }

    void start()
    {
        runner = Agents.start(this, NoOpIdleStrategy.INSTANCE);
    }

    boolean offer(final InboundMessage message)
    {
        if (queue.offer(message))
        {
            doorbell.ring();
            return true;
        }
        return false;
    }

    /** A hint for the coordinator: the thread is not parked and has nothing queued, so it takes new work at once. */
    boolean idleAndAwake()
    {
        return !doorbell.armed() && queue.isEmpty();
    }

    /** Asks the agent to stop and wakes it if it is parked; {@link #join()} waits for it. */
    void stop()
    {
        running = false;
        if (runner != null)
        {
            final Thread thread = runner.thread();
            if (thread != null)
            {
                LockSupport.unpark(thread);
            }
        }
    }

    void join()
    {
        if (runner != null)
        {
            runner.close();
        }
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
        lastWorkNs = System.nanoTime();
    }

    @Override
    public int doWork()
    {
        if (!running)
        {
            return 0;
        }
        final InboundMessage message = queue.poll();
        if (message != null)
        {
            idle.reset();
            lastWorkNs = 0; // read the clock again only once the queue is empty
            try
            {
                deliverer.deliverNow(message, importer);
            }
            catch (final Throwable t)
            {
                LOG.error("handler {}: delivery failed", role, t);
            }
            return 1;
        }
        if (spinNs > 0)
        {
            // spin a short while after work: the next message of a request/response exchange usually comes
            // sooner than a park and wake-up would take (the coordinator prefers a handler that is spinning)
            final long nowNs = System.nanoTime();
            if (lastWorkNs == 0)
            {
                lastWorkNs = nowNs;
            }
            if (nowNs - lastWorkNs < spinNs)
            {
                Thread.onSpinWait();
                return 0;
            }
        }
        if (idle.parking())
        {
            doorbell.prepareToPark();
            doorbell.park(queue.isEmpty() ? parkNs : 0);
        }
        else
        {
            idle.idle();
        }
        return 0;
    }
}
