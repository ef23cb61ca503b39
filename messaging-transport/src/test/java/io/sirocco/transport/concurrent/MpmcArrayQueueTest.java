package io.sirocco.transport.concurrent;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

@Timeout(60)
class MpmcArrayQueueTest
{
    @Test
    void shouldBeBoundedAndFifo()
    {
        final MpmcArrayQueue<Integer> queue = new MpmcArrayQueue<>(4);
        for (int i = 0; i < 4; i++)
        {
            assertThat(queue.offer(i)).isTrue();
        }
        assertThat(queue.offer(9)).isFalse();
        for (int i = 0; i < 4; i++)
        {
            assertThat(queue.poll()).isEqualTo(i);
        }
        assertThat(queue.poll()).isNull();
        assertThat(queue.isEmpty()).isTrue();
    }

    @Test
    void shouldHandEveryElementToExactlyOneConsumer() throws Exception
    {
        final MpmcArrayQueue<Long> queue = new MpmcArrayQueue<>(64);
        final int producers = 3;
        final long perProducer = 50_000;
        final AtomicLong sum = new AtomicLong();
        final AtomicLong count = new AtomicLong();
        final List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++)
        {
            final long base = p * perProducer;
            threads.add(Thread.ofPlatform().start(() ->
            {
                for (long i = 0; i < perProducer; i++)
                {
                    while (!queue.offer(base + i))
                    {
                        Thread.yield();
                    }
                }
            }));
        }
        for (int c = 0; c < 2; c++)
        {
            threads.add(Thread.ofPlatform().start(() ->
            {
                while (count.get() < producers * perProducer)
                {
                    final Long value = queue.poll();
                    if (value == null)
                    {
                        Thread.yield();
                        continue;
                    }
                    sum.addAndGet(value);
                    count.incrementAndGet();
                }
            }));
        }
        for (final Thread thread : threads)
        {
            thread.join();
        }
        final long n = producers * perProducer;
        assertThat(count.get()).isEqualTo(n);
        assertThat(sum.get()).isEqualTo(n * (n - 1) / 2);
    }
}
