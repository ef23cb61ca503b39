package io.sirocco.transport.incoming;

import io.sirocco.transport.concurrent.MpmcArrayQueue;
import io.sirocco.transport.idle.Doorbell;
import io.sirocco.transport.idle.IdleStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A message handler thread: takes parsed messages from its own queue (single producer: the coordinator), delivers
 * them, releases their buffers and recycles the descriptors. Ordered messages of one node always go to the same
 * handler, so they are delivered in stream order. After its queue runs empty it spins up to {@code handlerSpinNs},
 * then follows its idle strategy (yield, then park until the coordinator rings its doorbell).
 */
final class HandlerThread implements Runnable
{
    private static final Logger LOG = LoggerFactory.getLogger(HandlerThread.class);

    private final MpmcArrayQueue<InboundMessage> queue;
    private final Doorbell doorbell = new Doorbell();
    private final MessageCoordinator coordinator;
    private final IdleStrategy idle;
    private final long parkNs;
    private final long spinNs;
    private final SegmentImporter importer = new SegmentImporter();
    private final Thread thread;
    private volatile boolean running = true;

    HandlerThread(final String name, final int capacity, final MessageCoordinator coordinator, final IdleStrategy idle,
        final long parkNs, final long spinNs)
    {
        this.spinNs = spinNs;
        this.queue = new MpmcArrayQueue<>(capacity);
        this.coordinator = coordinator;
        this.idle = idle;
        this.parkNs = parkNs;
        this.thread = new Thread(this, name);
        this.thread.setDaemon(true);
        doorbell.owner(thread);
    }

    void start()
    {
        thread.start();
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

    void stop()
    {
        running = false;
        java.util.concurrent.locks.LockSupport.unpark(thread);
    }

    void join(final long millis) throws InterruptedException
    {
        thread.join(millis);
    }

    @Override
    public void run()
    {
        long lastWorkNs = System.nanoTime();
        while (running)
        {
            final InboundMessage message = queue.poll();
            if (message != null)
            {
                idle.reset();
                lastWorkNs = 0; // read the clock again only once the queue is empty
                try
                {
                    coordinator.deliverNow(message, importer);
                }
                catch (final Throwable t)
                {
                    LOG.error("handler thread {}: delivery failed", thread.getName(), t);
                }
                continue;
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
                    continue;
                }
            }
            if (idle.parking())
            {
                doorbell.prepareToPark();
                if (queue.isEmpty())
                {
                    doorbell.park(parkNs);
                }
                else
                {
                    doorbell.park(0);
                }
            }
            else
            {
                idle.idle();
            }
        }
    }
}
