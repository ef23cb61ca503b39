package io.sirocco.pubsub.bus;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A reader's receive window when it is full: KEEP_LAST best effort drops the oldest sample not yet handed over,
 * KEEP_ALL best effort drops the newest, and a reliable window fed by the predicate thread keeps what it must in its
 * overflow and rings its room listener when slots free. Every loss is counted.
 */
@Timeout(60)
class ReaderQueueTest
{
    private static final int WINDOW = 4;

    /** Records what it is handed; optionally blocks in {@code onMessage} until a permit is released. */
    private static class Recording implements DeliveryHandler
    {
        final List<Long> seqs = new CopyOnWriteArrayList<>();
        final AtomicInteger lost = new AtomicInteger();
        final Semaphore permits;
        final Semaphore entered = new Semaphore(0);
        final boolean keepsNewest;
        final boolean inline;

        Recording(final boolean keepsNewest, final boolean inline, final int initialPermits)
        {
            this.keepsNewest = keepsNewest;
            this.inline = inline;
            this.permits = new Semaphore(initialPermits);
        }

        @Override
        public void onMessage(final BusMessage message)
        {
            entered.release();
            permits.acquireUninterruptibly();
            seqs.add(message.seq());
        }

        @Override
        public void onLost(final int count)
        {
            lost.addAndGet(count);
        }

        @Override
        public boolean keepsNewest()
        {
            return keepsNewest;
        }

        @Override
        public boolean inlineSafe()
        {
            return inline;
        }

        @Override
        public void onBatchEnd()
        {
        }

        void awaitEntered(final int count) throws InterruptedException
        {
            assertThat(entered.tryAcquire(count, 30, TimeUnit.SECONDS)).as("delivery thread reached onMessage")
                .isTrue();
        }

        void awaitTotal(final int total) throws InterruptedException
        {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (seqs.size() + lost.get() < total && System.nanoTime() < deadline)
            {
                Thread.sleep(1);
            }
        }
    }

    private static BusMessage message(final long seq)
    {
        return new BusMessage(8).kind(BusMessage.KIND_DATA).writerGuid(1).seq(seq);
    }

    @Test
    void keepLastDropsTheOldestSampleNotYetHandedOver() throws Exception
    {
        final Recording handler = new Recording(true, false, 0);
        final ReaderQueue queue = new ReaderQueue(7, "T", false, WINDOW, 16, handler);
        try
        {
            assertThat(queue.offer(message(0), false, 0)).isEqualTo(ReaderQueue.Offer.QUEUED);
            handler.awaitEntered(1); // the delivery thread holds sample 0
            for (long seq = 1; seq < 10; seq++)
            {
                queue.offer(message(seq), false, 0);
            }
            handler.permits.release(Integer.MAX_VALUE / 2);
            handler.awaitTotal(10);
            assertThat(handler.seqs).as("the sample being handed over, then the newest three").containsExactly(0L,
                7L, 8L, 9L);
            assertThat(handler.lost.get()).as("every dropped sample counted").isEqualTo(6);
        }
        finally
        {
            queue.close();
        }
    }

    @Test
    void keepLastDropsAtTheHeadWhenNoSlotIsBeingHandedOver() throws Exception
    {
        final Recording handler = new Recording(true, true, Integer.MAX_VALUE / 2);
        final ReaderQueue queue = new ReaderQueue(7, "T", false, WINDOW, 16, handler);
        try
        {
            // This thread opens an inline batch (it delivers sample 0 itself and keeps the batch open), so the
            // delivery thread waits and samples offered by another thread queue in the ring.
            assertThat(queue.offerInBatch(message(0), false, 0)).isEqualTo(ReaderQueue.Offer.QUEUED);
            final Thread other = Thread.ofPlatform().start(() ->
            {
                for (long seq = 1; seq < 12; seq++)
                {
                    queue.offer(message(seq), false, 0);
                }
            });
            other.join(30_000);
            queue.endBatch();
            handler.awaitTotal(12);
            assertThat(handler.seqs).containsExactly(0L, 8L, 9L, 10L, 11L);
            assertThat(handler.lost.get()).isEqualTo(7);
        }
        finally
        {
            queue.close();
        }
    }

    @Test
    void keepAllDropsTheNewest() throws Exception
    {
        final Recording handler = new Recording(false, false, 0);
        final ReaderQueue queue = new ReaderQueue(7, "T", false, WINDOW, 16, handler);
        try
        {
            queue.offer(message(0), false, 0);
            handler.awaitEntered(1);
            for (long seq = 1; seq < 10; seq++)
            {
                queue.offer(message(seq), false, 0);
            }
            handler.permits.release(Integer.MAX_VALUE / 2);
            handler.awaitTotal(10);
            assertThat(handler.seqs).containsExactly(0L, 1L, 2L, 3L);
            assertThat(handler.lost.get()).isEqualTo(6);
        }
        finally
        {
            queue.close();
        }
    }

    @Test
    void aReliableWindowKeepsWhatItMustInItsOverflowAndRingsWhenItHasRoom() throws Exception
    {
        final Recording handler = new Recording(false, false, 0);
        final ReaderQueue queue = new ReaderQueue(7, "T", true, WINDOW, 16, handler);
        final CountDownLatch rung = new CountDownLatch(1);
        queue.onRoom(rung::countDown);
        try
        {
            queue.acceptInBatch(message(0));
            handler.awaitEntered(1);
            long seq = 1;
            while (queue.acceptsNow())
            {
                queue.acceptInBatch(message(seq++));
            }
            assertThat(seq).as("the ring is full after a window").isEqualTo(WINDOW);
            assertThat(queue.hasRoom()).isFalse();
            // What a view change's trim delivers without asking: kept beyond the window, never dropped.
            for (int i = 0; i < 3 * WINDOW; i++)
            {
                assertThat(queue.acceptInBatch(message(seq++))).isEqualTo(ReaderQueue.Offer.QUEUED);
            }
            queue.endBatch();
            assertThat(rung.getCount()).as("no room yet, no ring").isEqualTo(1);
            handler.permits.release(Integer.MAX_VALUE / 2);
            assertThat(rung.await(30, TimeUnit.SECONDS)).as("room listener rung").isTrue();
            handler.awaitTotal((int)seq);
            assertThat(handler.lost.get()).isZero();
            assertThat(handler.seqs).hasSize((int)seq);
            for (int i = 0; i < seq; i++)
            {
                assertThat(handler.seqs.get(i)).as("in order").isEqualTo(i);
            }
            assertThat(queue.awaitDelivered(TimeUnit.SECONDS.toNanos(30))).isTrue();
            assertThat(queue.hasRoom()).isTrue();
        }
        finally
        {
            queue.close();
        }
    }
    /**
     * Random windows, offer counts and reader stalls: a best-effort window never loses count (taken + lost ==
     * offered), hands samples over in increasing order without repeats, and keeps the newest sample (KEEP_LAST) or
     * the first one (KEEP_ALL).
     */
    @Property(tries = 40, shrinking = ShrinkingMode.OFF)
    void bestEffortAccountsForEverySample(@ForAll @IntRange(min = 2, max = 8) final int window,
        @ForAll @IntRange(min = 1, max = 300) final int offers, @ForAll final boolean keepLast,
        @ForAll final long seed) throws Exception
    {
        final java.util.Random random = new java.util.Random(seed);
        final Recording handler = new Recording(keepLast, false, Integer.MAX_VALUE / 2)
        {
            @Override
            public void onMessage(final BusMessage message)
            {
                if (random.nextInt(8) == 0)
                {
                    java.util.concurrent.locks.LockSupport.parkNanos(random.nextInt(200_000));
                }
                super.onMessage(message);
            }
        };
        final ReaderQueue queue = new ReaderQueue(7, "T", false, window, 16, handler);
        try
        {
            for (long seq = 0; seq < offers; seq++)
            {
                queue.offer(message(seq), false, 0);
                if (random.nextInt(16) == 0)
                {
                    Thread.yield();
                }
            }
            handler.awaitTotal(offers);
            assertThat(handler.seqs.size() + handler.lost.get()).as("taken + lost == offered").isEqualTo(offers);
            for (int i = 1; i < handler.seqs.size(); i++)
            {
                assertThat(handler.seqs.get(i)).as("increasing").isGreaterThan(handler.seqs.get(i - 1));
            }
            assertThat(handler.seqs).as(keepLast ? "the newest kept" : "the first kept")
                .contains(keepLast ? offers - 1L : 0L);
        }
        finally
        {
            queue.close();
        }
    }
}
