package io.sirocco.pubsub.bus;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The participant's delivery pool: submitting never blocks, even with every thread taken and the queue full, and
 * every task submitted runs; readers that share the pool each get their samples in order.
 */
@Timeout(60)
class DeliveryExecutorTest
{
    @Test
    void fullQueueNeitherBlocksNorLoses() throws InterruptedException
    {
        try (DeliveryExecutor executor = new DeliveryExecutor("test-full"))
        {
            final CountDownLatch release = new CountDownLatch(1);
            final CountDownLatch blocked = new CountDownLatch(DeliveryExecutor.MAX_THREADS);
            for (int i = 0; i < DeliveryExecutor.MAX_THREADS; i++)
            {
                executor.execute(() ->
                {
                    blocked.countDown();
                    awaitQuietly(release);
                });
            }
            assertThat(blocked.await(30, TimeUnit.SECONDS)).as("every pool thread taken").isTrue();
            final int extra = DeliveryExecutor.QUEUE_CAPACITY + 100;
            final AtomicInteger ran = new AtomicInteger();
            final long startNs = System.nanoTime();
            for (int i = 0; i < extra; i++)
            {
                executor.execute(ran::incrementAndGet);
            }
            assertThat(System.nanoTime() - startNs).as("submitting did not wait")
                .isLessThan(TimeUnit.SECONDS.toNanos(10));
            assertThat(ran.get()).isZero();
            release.countDown();
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (ran.get() < extra && System.nanoTime() < deadlineNs)
            {
                Thread.sleep(5);
            }
            assertThat(ran.get()).as("every task ran, the parked ones too").isEqualTo(extra);
        }
    }

    @Test
    void readersSharingThePoolKeepTheirOrder() throws InterruptedException
    {
        final int readers = 4;
        final int samples = 2_000;
        try (DeliveryExecutor executor = new DeliveryExecutor("test-order"))
        {
            final List<List<Long>> received = new CopyOnWriteArrayList<>();
            final CountDownLatch done = new CountDownLatch(readers);
            final List<ReaderQueue> queues = new CopyOnWriteArrayList<>();
            for (int r = 0; r < readers; r++)
            {
                final List<Long> mine = new CopyOnWriteArrayList<>();
                received.add(mine);
                queues.add(new ReaderQueue(r + 1, "T", true, 8, 16, new DeliveryHandler()
                {
                    @Override
                    public void onMessage(final BusMessage message)
                    {
                        mine.add(message.seq());
                        if (mine.size() == samples)
                        {
                            done.countDown();
                        }
                    }

                    @Override
                    public void onLost(final int count)
                    {
                    }

                    @Override
                    public void onBatchEnd()
                    {
                    }

                    @Override
                    public boolean inlineSafe()
                    {
                        return false;
                    }
                }, executor));
            }
            final BusMessage message = new BusMessage(16);
            for (long seq = 1; seq <= samples; seq++)
            {
                for (final ReaderQueue queue : queues)
                {
                    message.kind(BusMessage.KIND_DATA).seq(seq).payloadLength(0);
                    assertThat(queue.offer(message, true, TimeUnit.SECONDS.toNanos(30)))
                        .isEqualTo(ReaderQueue.Offer.QUEUED);
                }
            }
            assertThat(done.await(30, TimeUnit.SECONDS)).as("every reader got every sample").isTrue();
            for (final List<Long> mine : received)
            {
                for (int i = 0; i < samples; i++)
                {
                    assertThat(mine.get(i)).isEqualTo(i + 1L);
                }
            }
            queues.forEach(ReaderQueue::close);
        }
    }

    private static void awaitQuietly(final CountDownLatch latch)
    {
        try
        {
            latch.await(60, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
