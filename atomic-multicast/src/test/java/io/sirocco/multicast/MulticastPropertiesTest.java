package io.sirocco.multicast;

import io.sirocco.multicast.model.DeliveryMode;
import io.sirocco.multicast.model.Role;
import io.sirocco.multicast.model.SubgroupSpec;
import io.sirocco.multicast.smc.SpindleOptions;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Protocol invariants under random member counts, sender sets, message counts and sizes (including bulk messages
 * larger than a slot), windows, per-sender delays and Spindle switches.
 */
class MulticastPropertiesTest
{
    record Scenario(int members, int[] counts, int window, int maxSize, int delayUs, boolean batching,
        boolean nulls, boolean pushOutsideLock, long seed)
    {
        @Override
        public String toString()
        {
            return "Scenario{members=" + members + ", counts=" + java.util.Arrays.toString(counts) + ", window="
                + window + ", maxSize=" + maxSize + ", delayUs=" + delayUs + ", batching=" + batching + ", nulls="
                + nulls + ", unlocked=" + pushOutsideLock + ", seed=" + seed + "}";
        }
    }

    @Provide
    Arbitrary<Scenario> orderedScenarios()
    {
        return Combinators.combine(
            Arbitraries.integers().between(2, 5),
            Arbitraries.integers().between(1, 40).array(int[].class).ofSize(5),
            Arbitraries.of(1, 2, 3, 7, 100),
            Arbitraries.of(64, 256, 700),
            Arbitraries.of(0, 50, 300),
            Arbitraries.of(true, false),
            Arbitraries.of(true, false),
            Arbitraries.longs())
            .as((n, counts, w, size, delay, batching, unlocked, seed) ->
            {
                final int[] c = java.util.Arrays.copyOf(counts, n);
                // Senders that stop early need null-sends for the others' later messages to become stable.
                final java.util.Random r = new java.util.Random(seed);
                for (int i = 0; i < n; i++)
                {
                    if (r.nextInt(4) == 0)
                    {
                        c[i] = 0;
                    }
                }
                if (java.util.Arrays.stream(c).allMatch(x -> x == 0))
                {
                    c[0] = 5;
                }
                return new Scenario(n, c, w, size, delay, batching, true, unlocked, seed);
            });
    }

    private static SpindleOptions options(final Scenario s)
    {
        return SpindleOptions.ALL_ON.withBatching(s.batching()).withNullSends(s.nulls())
            .withPushOutsideLock(s.pushOutsideLock());
    }

    private static SubgroupSpec spec(final Scenario s, final DeliveryMode mode)
    {
        return new SubgroupSpec("p", mode, s.window(), 256, Math.max(256, s.maxSize()));
    }

    private static Role role(final Scenario s, final int i)
    {
        return s.counts()[i] > 0 ? Role.WRITER_READER : Role.READER;
    }

    @Property(tries = 12, shrinking = ShrinkingMode.OFF)
    void orderedDeliversOneIdenticalSequenceWithoutLossOrDuplicates(@ForAll("orderedScenarios") final Scenario s)
        throws Exception
    {
        try (TestCluster c = new TestCluster(s.members(), "local", options(s),
            i -> List.of(spec(s, DeliveryMode.ORDERED)), i -> role(s, i)))
        {
            final long total = java.util.Arrays.stream(s.counts()).asLongStream().sum();
            for (final Thread t : Senders.start(c.groups, "p", s.counts(), s.maxSize(), s.delayUs(), s.seed()))
            {
                t.join(60_000);
            }
            Senders.awaitDelivered(c.recorders, total);
            final List<TestCluster.Delivery> first = c.recorders.get(0).list();
            assertThat(first).as("member 0 of %s", s).hasSize((int)total);
            for (int m = 1; m < s.members(); m++)
            {
                assertThat(c.recorders.get(m).list()).as("member %d vs member 0, %s", m, s).isEqualTo(first);
            }
            assertPerSenderFifoComplete(first, s.counts(), c);
            long lastSeq = -1;
            for (final TestCluster.Delivery d : first)
            {
                assertThat(d.seq()).as("seq strictly increasing").isGreaterThan(lastSeq);
                lastSeq = d.seq();
            }
        }
    }

    @Property(tries = 10, shrinking = ShrinkingMode.OFF)
    void unorderedKeepsPerSenderFifoWithoutLossOrDuplicates(@ForAll("orderedScenarios") final Scenario s)
        throws Exception
    {
        try (TestCluster c = new TestCluster(s.members(), "local", options(s),
            i -> List.of(spec(s, DeliveryMode.UNORDERED)), i -> role(s, i)))
        {
            final long total = java.util.Arrays.stream(s.counts()).asLongStream().sum();
            for (final Thread t : Senders.start(c.groups, "p", s.counts(), s.maxSize(), s.delayUs(), s.seed()))
            {
                t.join(60_000);
            }
            Senders.awaitDelivered(c.recorders, total);
            for (int m = 0; m < s.members(); m++)
            {
                final List<TestCluster.Delivery> got = c.recorders.get(m).list();
                assertThat(got).as("member %d, %s", m, s).hasSize((int)total);
                assertPerSenderFifoComplete(got, s.counts(), c);
            }
        }
    }

    /** Every sender's messages 0..count-1 appear exactly once, in order. */
    static void assertPerSenderFifoComplete(final List<TestCluster.Delivery> got, final int[] counts,
        final TestCluster c)
    {
        final Map<Long, Long> next = new HashMap<>();
        for (final TestCluster.Delivery d : got)
        {
            final int senderNo = (int)(d.firstWord() >>> 32);
            assertThat(c.groups.get(senderNo).memberId()).as("sender id matches payload").isEqualTo(d.sender());
            final long n = d.firstWord() & 0xffffffffL;
            final long expected = next.getOrDefault(d.sender(), 0L);
            assertThat(n).as("FIFO from sender %d", senderNo).isEqualTo(expected);
            next.put(d.sender(), expected + 1);
        }
        final List<Long> missing = new ArrayList<>();
        for (int s = 0; s < counts.length; s++)
        {
            final long id = c.groups.get(s).memberId();
            if (next.getOrDefault(id, 0L) != counts[s])
            {
                missing.add(id);
            }
        }
        assertThat(missing).as("senders with missing messages").isEmpty();
    }
}
