package io.sirocco.pubsub.bus;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The shape of MultiProcessSlowReliableReaderTest's stranded delivery, made likely in one JVM: one "predicate
 * thread" feeds several RELIABLE readers (one per topic) the way TopicChannel does (acceptsNow, then acceptInBatch,
 * endBatch; a full window stops that topic until its delivery task rings the doorbell), all readers share one
 * participant pool whose threads end after a millisecond idle (so threads are created and retired all the time), and
 * the listeners stall at random, one of them for long. Every reader must receive every message, in order, none
 * twice; a lost doorbell or a reader whose delivery task never runs again leaves a reader short, which the bounded
 * wait reports (naming the reader and how far it got).
 */
@Timeout(300)
class StrandedDeliveryStressTest
{
    private static final int READERS = 6;
    private static final int WINDOW = 8;
    private static final int MESSAGES = 20_000;

    /** A reader's listener: checks order, stalls at random (the first reader once for long). */
    private static final class StallingHandler implements DeliveryHandler
    {
        private final boolean longStall;
        private final AtomicLong received = new AtomicLong();
        private volatile long expected;
        private volatile String error;
        private boolean stalledLong;

        StallingHandler(final boolean longStall)
        {
            this.longStall = longStall;
        }

        @Override
        public void onMessage(final BusMessage message)
        {
            if (message.seq() != expected && error == null)
            {
                error = "expected seq " + expected + ", got " + message.seq();
            }
            expected = message.seq() + 1;
            received.incrementAndGet();
        }

        @Override
        public void onLost(final int count)
        {
            error = "lost " + count + " on a reliable reader";
        }

        @Override
        public void onBatchEnd()
        {
            final ThreadLocalRandom random = ThreadLocalRandom.current();
            if (longStall && !stalledLong && received.get() > MESSAGES / 10)
            {
                stalledLong = true;
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(300));
            }
            else if (random.nextInt(8) == 0)
            {
                LockSupport.parkNanos(random.nextLong(1, 2_000_000L));
            }
            else if (random.nextInt(4) == 0)
            {
                Thread.yield();
            }
        }
    }

    @Test
    void everyReaderReceivesEverythingWhileThreadsComeAndGo() throws Exception
    {
        for (int round = 0; round < 3; round++)
        {
            runRound(round);
        }
    }

    private static void runRound(final int round) throws Exception
    {
        final List<StallingHandler> handlers = new ArrayList<>();
        final List<ReaderQueue> queues = new ArrayList<>();
        final Thread[] feeder = new Thread[1];
        final AtomicLong rings = new AtomicLong();
        try (DeliveryExecutor executor = new DeliveryExecutor("stress-" + round, TimeUnit.MILLISECONDS.toNanos(1)))
        {
            for (int r = 0; r < READERS; r++)
            {
                final StallingHandler handler = new StallingHandler(r == 0);
                handlers.add(handler);
                final ReaderQueue queue = new ReaderQueue(r + 1, "T" + r, true, WINDOW, 16, handler, executor);
                queue.onRoom(() ->
                {
                    rings.incrementAndGet();
                    LockSupport.unpark(feeder[0]);
                });
                queues.add(queue);
            }
            final Feeder feed = new Feeder(queues);
            feeder[0] = Thread.ofPlatform().name("stress-feeder").start(feed);
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!allReceived(handlers) && System.nanoTime() - deadlineNs < 0)
            {
                Thread.sleep(10);
            }
            feed.stop = true;
            LockSupport.unpark(feeder[0]);
            feeder[0].join(10_000);
            for (int r = 0; r < READERS; r++)
            {
                final StallingHandler h = handlers.get(r);
                assertThat(h.error).as("round %d reader %d", round, r).isNull();
                assertThat(h.received.get()).as("round %d reader %d received (fed %d, rings %d, room now %s)", round,
                    r, feed.fed[r], rings.get(), queues.get(r).hasRoom()).isEqualTo(MESSAGES);
            }
            assertThat(feed.failure).isNull();
        }
        finally
        {
            for (final ReaderQueue queue : queues)
            {
                queue.close();
            }
        }
    }

    private static boolean allReceived(final List<StallingHandler> handlers)
    {
        for (final StallingHandler h : handlers)
        {
            if (h.received.get() < MESSAGES)
            {
                return false;
            }
        }
        return true;
    }

    /**
     * The predicate thread's part: per topic, offers while the window accepts, in batches ended with endBatch; when
     * no topic could take anything it parks (bounded, 50 ms: a lost doorbell costs time, not the test, so only a
     * reader that is never served again fails it).
     */
    private static final class Feeder implements Runnable
    {
        private final List<ReaderQueue> queues;
        final long[] fed;
        volatile boolean stop;
        volatile Throwable failure;

        Feeder(final List<ReaderQueue> queues)
        {
            this.queues = queues;
            this.fed = new long[queues.size()];
        }

        @Override
        public void run()
        {
            final BusMessage message = new BusMessage(16).kind(BusMessage.KIND_DATA).writerGuid(1);
            try
            {
                while (!stop)
                {
                    boolean progress = false;
                    for (int r = 0; r < queues.size(); r++)
                    {
                        final ReaderQueue queue = queues.get(r);
                        final int batch = ThreadLocalRandom.current().nextInt(1, 2 * WINDOW);
                        int n = 0;
                        while (n < batch && fed[r] < MESSAGES && queue.acceptsNow())
                        {
                            message.seq(fed[r]++);
                            queue.acceptInBatch(message);
                            n++;
                        }
                        if (n > 0)
                        {
                            queue.endBatch();
                            progress = true;
                        }
                    }
                    if (!progress)
                    {
                        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
                    }
                }
            }
            catch (final Throwable t)
            {
                failure = t;
            }
        }
    }
}
