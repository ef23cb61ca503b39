package io.sirocco.multicast.smc;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

import io.sirocco.multicast.model.ClaimResult;
import io.sirocco.multicast.model.DeliveryHandler;
import io.sirocco.multicast.model.DeliveryMode;
import io.sirocco.multicast.model.SlotClaim;
import io.sirocco.multicast.sst.SstLayout;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The lapped-receiver resume rule of UNORDERED_LOSSY (DDS BEST_EFFORT), on one shared shm table with rank 0 the only
 * sender and rank 1 a reader. Most cases are stepped by hand (no predicate threads): the writer runs ahead between
 * the reader's passes, or inside the reader's delivery upcall, which is a writer faster than the reader. Every
 * message carries its index in every 8-byte word, so a torn copy cannot pass unnoticed.
 */
class LappedReceiverTest
{
    private static final int SIZE = 256;
    private final ShmTestTable table = new ShmTestTable("lapped", 2);

    @AfterEach
    void close() throws java.io.IOException
    {
        table.close();
    }

    /** What the reader got: delivered indices in order, the lost count, and an optional hook per delivery. */
    private static final class Recorder implements DeliveryHandler
    {
        final List<Long> indices = new ArrayList<>();
        long lost;
        long torn;
        LongConsumer onEach = i -> { };

        @Override
        public void onMessage(final long senderId, final int senderRank, final long index, final long seq,
            final MemorySegment payload, final int length)
        {
            for (int off = 0; off + 8 <= length; off += 8)
            {
                if (payload.get(ValueLayout.JAVA_LONG_UNALIGNED, off) != (index ^ off))
                {
                    torn++;
                    break;
                }
            }
            indices.add(index);
            onEach.accept(index);
        }

        @Override
        public void onLost(final long senderId, final long count)
        {
            lost += count;
        }

        void assertStrictlyIncreasingAndWhole()
        {
            assertThat(torn).as("torn slots delivered").isZero();
            assertThat(indices).as("FIFO, no duplicate").doesNotHaveDuplicates().isSorted();
        }
    }

    private final class Pair
    {
        final SubgroupEngine sender;
        final SubgroupEngine reader;
        final Recorder got = new Recorder();
        final SlotClaim claim = new SlotClaim();
        long sent;

        Pair(final int window)
        {
            final SstLayout layout = new SstLayout(new int[] {1}, new int[] {window}, new int[] {SIZE},
                new int[] {SIZE});
            sender = engine(layout, window, 0, new Recorder());
            reader = engine(layout, window, 1, got);
        }

        private SubgroupEngine engine(final SstLayout layout, final int window, final int rank,
            final DeliveryHandler handler)
        {
            return new SubgroupEngine("lossy-topic", DeliveryMode.UNORDERED_LOSSY, window, SIZE, SIZE, 0, layout,
                new int[] {0}, new long[] {100}, new int[] {0, 1}, rank, table.open(rank, layout),
                SpindleOptions.ALL_ON, handler, () -> { });
        }

        void send(final int n)
        {
            for (int j = 0; j < n; j++)
            {
                assertThat(sender.tryClaim(SIZE, claim)).as("a lossy writer never waits").isEqualTo(ClaimResult.OK);
                final long index = sent++;
                for (int off = 0; off < SIZE; off += 8)
                {
                    claim.buffer().set(ValueLayout.JAVA_LONG_UNALIGNED, off, index ^ off);
                }
                claim.commit();
                // The sender's own triggers keep its row current, as its predicate thread would.
                sender.sendTrigger();
            }
        }

        void drain()
        {
            while (reader.receiveTrigger())
            {
                // Until nothing new: the writer has stopped.
            }
        }
    }

    @Test
    void shouldResumeAheadOfTheOldestSlotWhenLappedBetweenPassesThenDeliverWhatFollows()
    {
        final int window = 64;
        final Pair p = new Pair(window);
        p.send(10);
        p.drain();
        assertThat(p.got.indices).hasSize(10);
        for (int k = 1; k <= 3; k++)
        {
            // Lapped by k windows and a bit while not running.
            final long before = p.sent;
            p.send(k * window + 5);
            final int deliveredBefore = p.got.indices.size();
            p.drain();
            final List<Long> now = p.got.indices.subList(deliveredBefore, p.got.indices.size());
            assertThat(now).as("resumes an eighth of a window past the oldest slot, then delivers to the newest")
                .hasSize(window - window / 8).last().isEqualTo(p.sent - 1);
            assertThat(now.get(0)).isGreaterThan(before);
            // Then it keeps up with a writer that keeps going at its pace: nothing more is lost.
            final long lostAfterLap = p.got.lost;
            for (int round = 0; round < 5; round++)
            {
                p.send(window / 2);
                p.drain();
            }
            assertThat(p.got.lost).as("no loss while not lapped").isEqualTo(lostAfterLap);
            assertThat(p.got.indices).last().isEqualTo(p.sent - 1);
            assertThat(p.got.indices.size() + p.got.lost).as("delivered + lost == sent").isEqualTo(p.sent);
        }
        p.got.assertStrictlyIncreasingAndWhole();
    }

    @Test
    void shouldKeepDeliveringWhenAFasterWriterLapsItWhileItCopies()
    {
        // The writer writes three messages for every one the reader delivers, from inside the delivery upcall: each
        // pass the reader is overtaken mid-way. Resuming at the oldest slot would fail every copy from then on.
        final int window = 64;
        final Pair p = new Pair(window);
        final int total = 30_000;
        p.got.onEach = i -> p.send((int)Math.min(3, total - p.sent));
        p.send(window);
        while (p.sent < total)
        {
            if (!p.reader.receiveTrigger())
            {
                p.send(1);
            }
        }
        p.got.onEach = i -> { };
        p.drain();
        p.got.assertStrictlyIncreasingAndWhole();
        assertThat(p.got.indices.size() + p.got.lost).as("delivered + lost == sent").isEqualTo(total);
        assertThat(p.got.lost).as("the reader was lapped").isPositive();
        // One delivery per three writes at best: a reader that keeps being lapped at the oldest slot delivers ~0.
        assertThat(p.got.indices.size()).as("delivered a large fraction").isGreaterThan(total / 5);
        // A lap costs one failed check, not one per overwritten slot (each costs real time while the writer runs on).
        final long checkedInVain = p.reader.stats().receivedMessages - p.got.indices.size();
        assertThat(checkedInVain).as("slots checked in vain").isLessThan(p.got.indices.size() / 4);
    }

    /**
     * Any interleaving of writer bursts (between passes, or inside the upcall) and reader passes: delivered + lost ==
     * sent, per-sender FIFO without duplicates, never a torn slot, and the newest message is always delivered.
     */
    @Property(tries = 60, shrinking = ShrinkingMode.OFF)
    void deliveredPlusLostIsSentForAnyInterleaving(
        @ForAll @IntRange(min = 1, max = 40) final int window,
        @ForAll @Size(min = 1, max = 40) final List<@IntRange(min = 0, max = 200) Integer> bursts,
        @ForAll @IntRange(min = 0, max = 5) final int writesPerDelivery) throws java.io.IOException
    {
        try
        {
            final Pair p = new Pair(window);
            p.got.onEach = i -> p.send(writesPerDelivery);
            for (final int burst : bursts)
            {
                p.send(burst);
                p.reader.receiveTrigger();
            }
            p.got.onEach = i -> { };
            p.drain();
            p.got.assertStrictlyIncreasingAndWhole();
            assertThat(p.got.indices.size() + p.got.lost).as("delivered + lost == sent").isEqualTo(p.sent);
            if (p.sent > 0)
            {
                assertThat(p.got.indices).last().as("the newest message is delivered").isEqualTo(p.sent - 1);
            }
        }
        finally
        {
            close();
        }
    }

    /** Real threads: a writer at full speed, a reader polling; the counts add up and no copy is ever torn. */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldCountExactlyAndNeverTearWithAConcurrentWriter() throws Exception
    {
        final int window = 128;
        final Pair p = new Pair(window);
        final int total = 200_000;
        final Thread writer = Thread.ofPlatform().name("lapped-test-writer").start(() -> p.send(total));
        while (writer.isAlive())
        {
            p.reader.receiveTrigger();
        }
        writer.join();
        p.drain();
        p.got.assertStrictlyIncreasingAndWhole();
        assertThat(p.got.indices.size() + p.got.lost).as("delivered + lost == sent").isEqualTo(total);
        assertThat(p.got.indices).last().isEqualTo((long)total - 1);
    }
}
