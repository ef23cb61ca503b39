package io.sirocco.pubsub.bus;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.sirocco.transport.agent.Agents;

/**
 * The threads that hand a participant's received samples to its DataReaders and run their listeners: a bounded pool
 * ({@value #MAX_THREADS} threads at most, {@code sirocco-delivery-<name>[-n]}, made on demand and ended
 * after {@value #KEEP_ALIVE_S} s idle) instead of a thread per reader. Each {@link ReaderQueue} has at most one
 * delivery task queued or running at a time, so a reader's samples are handed over in order, by one thread at a time.
 *
 * <p><b>Back-pressure.</b> The task queue is bounded ({@value #QUEUE_CAPACITY} tasks). Submitting never blocks and
 * never runs the task on the caller, so the predicate thread that offers a sample can neither wait nor deadlock here.
 * When the queue is full the task is parked on a side list that every pool thread drains after each task it runs;
 * since a full queue means tasks are queued, a pool thread always comes by. Nothing accepted is lost: a task only
 * says "this reader's window has work", the samples stay in the window (which has its own flow control: a full
 * reliable window stops the subgroup's delivery, a best-effort one drops and counts). The side list holds at most one
 * entry per reader (a reader submits only when it has no task queued or running).
 *
 * <p>Threads are made when a task finds none idle (up to the maximum), and only then is a task queued: the pool's
 * queue refuses a task while there are fewer threads than tasks in flight ({@code inFlight}), which makes the
 * executor add a thread (Tomcat's TaskQueue idea), so a listener that blocks holds up only the readers queued behind
 * it when every thread is taken.
 *
 * <p>Thread-safe.
 */
public final class DeliveryExecutor implements AutoCloseable
{
    static final int MAX_THREADS = 16;
    static final int QUEUE_CAPACITY = 1024;
    static final long KEEP_ALIVE_S = 10;

    private final GrowFirstQueue queue = new GrowFirstQueue();
    private final ThreadPoolExecutor pool;
    private final ConcurrentLinkedQueue<Runnable> parked = new ConcurrentLinkedQueue<>();
    /** Tasks handed to the pool and not finished yet. */
    private final AtomicInteger inFlight = new AtomicInteger();

    /** @param name names the threads ({@code sirocco-delivery-<name>}), e.g. the domain and participant. */
    public DeliveryExecutor(final String name)
    {
        this(name, TimeUnit.SECONDS.toNanos(KEEP_ALIVE_S));
    }

    /** Tests: threads that end after {@code keepAliveNs} idle, so that threads come and go all the time. */
    DeliveryExecutor(final String name, final long keepAliveNs)
    {
        pool = new ThreadPoolExecutor(0, MAX_THREADS, keepAliveNs, TimeUnit.NANOSECONDS, queue,
            Agents.threadFactory("delivery-" + name));
    }

    /** The pool's queue: refuses a task while no thread is idle and the pool may grow (then it adds a thread). */
    private final class GrowFirstQueue extends LinkedBlockingQueue<Runnable>
    {
        GrowFirstQueue()
        {
            super(QUEUE_CAPACITY);
        }

        @Override
        public boolean offer(final Runnable task)
        {
            if (pool != null && inFlight.get() > pool.getPoolSize() && pool.getPoolSize() < MAX_THREADS)
            {
                return false;
            }
            return super.offer(task);
        }
    }

    /** Runs {@code task} on a pool thread, soon; never blocks, never runs it on the caller (see the class comment). */
    public void execute(final Runnable task)
    {
        if (!submit(task))
        {
            if (pool.isShutdown())
            {
                return; // closing: the readers are closed with it
            }
            parked.add(task);
            unpark(); // the queued tasks may all have finished before the add: try once more
        }
    }

    /** Hands the task to the pool; false when it refused (queue full at the maximum of threads, or shut down). */
    private boolean submit(final Runnable task)
    {
        inFlight.incrementAndGet();
        try
        {
            pool.execute(() -> runThenUnpark(task));
            return true;
        }
        catch (final RejectedExecutionException ex)
        {
            inFlight.decrementAndGet();
            return false;
        }
    }

    private void runThenUnpark(final Runnable task)
    {
        try
        {
            task.run();
        }
        finally
        {
            inFlight.decrementAndGet();
            unpark();
        }
    }

    /** Moves parked tasks into the pool queue while it has room. */
    private void unpark()
    {
        Runnable next;
        while ((next = parked.poll()) != null)
        {
            if (!submit(next))
            {
                if (pool.isShutdown())
                {
                    return;
                }
                parked.add(next);
                if (queue.remainingCapacity() == 0)
                {
                    // Full after the add: each queued task runs this method after it ran, so one finds it.
                    return;
                }
                Thread.onSpinWait(); // refused while the queue had room (the pool grew meanwhile): try again
            }
        }
    }

    /** Stops the threads once the queued tasks ran (they find their readers closed and return). */
    @Override
    public void close()
    {
        pool.shutdown();
    }
}
