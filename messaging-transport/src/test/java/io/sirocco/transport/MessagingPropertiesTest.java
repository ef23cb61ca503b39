package io.sirocco.transport;

import io.sirocco.transport.loopback.LoopbackFabric;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.StringLength;
import net.jqwik.api.constraints.CharRange;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * N threads x M messages of random sizes (1 B to twice the ring size, so whole, wrapped and fragmented frames) across
 * 2 and 3 nodes: every message arrives exactly once, ordered messages keep each sender thread's order, and the
 * payload bytes are intact.
 */
class MessagingPropertiesTest
{
    private static final int RING_BYTES = 16 * 1024;

    @Property(tries = 30)
    void everyMessageArrivesOnceInOrderAndIntact(
        @ForAll @IntRange(min = 2, max = 3) final int nodeCount,
        @ForAll @IntRange(min = 1, max = 4) final int threads,
        @ForAll @IntRange(min = 1, max = 100) final int messagesPerThread,
        @ForAll @LongRange final long seed,
        @ForAll @StringLength(1) @CharRange(from = 'a', to = 'b') final String transportPick,
        @ForAll final boolean inlineCoordinator) throws Exception
    {
        final String transport = transportPick.equals("a") ? "loopback" : "nio";
        final LoopbackFabric fabric = new LoopbackFabric();
        final NodeAddressMap addresses = new NodeAddressMap();
        final List<MessagingService> nodes = new ArrayList<>();
        final Set<Long> seen = ConcurrentHashMap.newKeySet();
        final AtomicInteger duplicates = new AtomicInteger();
        final AtomicInteger corrupt = new AtomicInteger();
        final AtomicInteger outOfOrder = new AtomicInteger();
        final AtomicLong received = new AtomicLong();
        final Map<Long, Long> lastOrdered = new ConcurrentHashMap<>();
        try
        {
            for (int id = 1; id <= nodeCount; id++)
            {
                addresses.put(id, "127.0.0.1", 0);
                final MessagingService node = MessagingService.start(new TransportContext().ownNodeId(id)
                    .transport(transport).addressMap(addresses).loopbackFabric(fabric).ringBufferBytes(RING_BYTES)
                    .flowControlWindowBytes(RING_BYTES).inlineCoordinator(inlineCoordinator)
                    .handlerThreads(inlineCoordinator ? 0 : 2));
                nodes.add(node);
                final int receiver = id;
                final MessageHandler<TestMessages.Data> handler = d ->
                {
                    if (!d.intact() || d.sender != d.sourceNodeId())
                    {
                        corrupt.incrementAndGet();
                    }
                    final long key = ((long)d.sender << 48) | ((long)d.thread << 32) | d.sequence;
                    if (!seen.add(key))
                    {
                        duplicates.incrementAndGet();
                    }
                    if (d.ordered())
                    {
                        final long stream = ((long)receiver << 32) | ((long)d.sender << 16) | d.thread;
                        final Long previous = lastOrdered.put(stream, d.sequence);
                        if (previous != null && previous >= d.sequence)
                        {
                            outOfOrder.incrementAndGet();
                        }
                    }
                    received.incrementAndGet();
                };
                node.register(TestMessages.TYPE, TestMessages.DATA, TestMessages.Data::new, handler);
                node.register(TestMessages.TYPE, TestMessages.ORDERED_DATA, () -> new TestMessages.Data(true), handler);
            }
            final List<Thread> senders = new ArrayList<>();
            final AtomicInteger sendFailures = new AtomicInteger();
            for (final MessagingService node : nodes)
            {
                for (int t = 0; t < threads; t++)
                {
                    final int thread = t;
                    final Random random = new Random(seed * 31 + node.ownNodeId() * 7 + t);
                    senders.add(Thread.ofPlatform().start(() ->
                    {
                        try
                        {
                            for (int m = 0; m < messagesPerThread; m++)
                            {
                                final int pick = random.nextInt(10);
                                final int size = pick < 6 ? 1 + random.nextInt(256) :
                                    pick < 9 ? 1 + random.nextInt(RING_BYTES) : 1 + random.nextInt(2 * RING_BYTES);
                                final int destination = 1 + random.nextInt(nodeCount);
                                node.send(new TestMessages.Data(random.nextBoolean())
                                    .fill(node.ownNodeId(), thread, m, size), destination);
                            }
                        }
                        catch (final RuntimeException e)
                        {
                            sendFailures.incrementAndGet();
                            throw e;
                        }
                    }));
                }
            }
            for (final Thread sender : senders)
            {
                sender.join(TimeUnit.SECONDS.toMillis(60));
            }
            final long expected = (long)nodeCount * threads * messagesPerThread;
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (received.get() < expected && System.nanoTime() < deadline)
            {
                Thread.sleep(1); // polling for the event itself, bounded
            }
            assertThat(sendFailures.get()).isZero();
            assertThat(received.get()).isEqualTo(expected);
            assertThat(seen).hasSize((int)expected);
        }
        finally
        {
            nodes.forEach(MessagingService::close);
        }
        assertThat(duplicates.get()).isZero();
        assertThat(corrupt.get()).isZero();
        assertThat(outOfOrder.get()).isZero();
        assertThat(received.get()).isEqualTo((long)nodeCount * threads * messagesPerThread);
    }
}
