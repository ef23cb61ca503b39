package io.sirocco.multicast;

import io.sirocco.multicast.model.ClaimResult;
import io.sirocco.multicast.model.DeliveryMode;
import io.sirocco.multicast.model.Role;
import io.sirocco.multicast.model.SlotClaim;
import io.sirocco.multicast.model.SubgroupSpec;
import io.sirocco.multicast.smc.SpindleOptions;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * In-place claims ({@link SlotClaim#commit(int)} with a final length at most the claimed one, and
 * {@link SlotClaim#abort()}) under random senders, claim and commit lengths (including bulk claims larger than a
 * slot) and abort rates, in ORDERED subgroups of windows 1, 2 and 100 at once, over each row transport. Properties:
 * every member delivers one identical sequence per subgroup; exactly the committed messages are delivered, each once,
 * in per-sender order, with the committed length; an aborted claim is delivered to nobody and stalls nobody (every
 * committed message after it is delivered: no loss).
 */
class ClaimInPlacePropertiesTest
{
    private static final int[] WINDOWS = {1, 2, 100};
    private static final int SLOT = 256;
    private static final int MAX_MESSAGE = 700;

    /**
     * One sender's plan, per subgroup: the length claimed and the length committed for each claim, or -1 for an
     * aborted claim.
     */
    record Plan(int[][] claimLength, int[][] commitLength)
    {
    }

    record Scenario(int members, int[] counts, int abortPercent, int maxSize, long seed)
    {
        @Override
        public String toString()
        {
            return "Scenario{members=" + members + ", counts=" + Arrays.toString(counts) + ", abortPercent=" +
                abortPercent + ", maxSize=" + maxSize + ", seed=" + seed + "}";
        }

        /** Sender {@code s}'s claims, derived from the seed so that the assertions know them. */
        Plan plan(final int s)
        {
            final Random r = new Random(seed * 31 + s);
            final int[][] claim = new int[WINDOWS.length][counts[s]];
            final int[][] commit = new int[WINDOWS.length][counts[s]];
            for (int g = 0; g < WINDOWS.length; g++)
            {
                for (int n = 0; n < counts[s]; n++)
                {
                    claim[g][n] = 16 + r.nextInt(maxSize - 15);
                    commit[g][n] = r.nextInt(100) < abortPercent ? -1 : 16 + r.nextInt(claim[g][n] - 15);
                }
                if (counts[s] > 0)
                {
                    // The last claim is committed: once it is delivered, every aborted claim before it was passed,
                    // so "never delivered" is checked after the fact, not before.
                    commit[g][counts[s] - 1] = claim[g][counts[s] - 1];
                }
            }
            return new Plan(claim, commit);
        }
    }

    @Provide
    Arbitrary<Scenario> scenarios()
    {
        return Combinators.combine(
            Arbitraries.integers().between(2, 4),
            Arbitraries.integers().between(0, 60).array(int[].class).ofSize(4),
            Arbitraries.of(0, 10, 50, 100),
            Arbitraries.of(64, SLOT, MAX_MESSAGE),
            Arbitraries.longs())
            .as((n, counts, abort, size, seed) ->
            {
                final int[] c = Arrays.copyOf(counts, n);
                if (Arrays.stream(c).allMatch(x -> x == 0))
                {
                    c[0] = 20;
                }
                return new Scenario(n, c, abort, size, seed);
            });
    }

    @Property(tries = 8, shrinking = ShrinkingMode.OFF)
    void local(@ForAll("scenarios") final Scenario s) throws Exception
    {
        check("local", s);
    }

    @Property(tries = 5, shrinking = ShrinkingMode.OFF)
    void shm(@ForAll("scenarios") final Scenario s) throws Exception
    {
        check("shm", s);
    }

    @Property(tries = 4, shrinking = ShrinkingMode.OFF)
    void tcp(@ForAll("scenarios") final Scenario s) throws Exception
    {
        check("tcp", s);
    }

    private static String name(final int g)
    {
        return "w" + WINDOWS[g];
    }

    /** The first (and last) word of a message: subgroup, sender and claim number (aborted claims count too). */
    private static long word(final int g, final int sender, final int n)
    {
        return ((long)g << 48) | ((long)sender << 32) | n;
    }

    private static void check(final String transport, final Scenario s) throws Exception
    {
        final List<SubgroupSpec> specs = new ArrayList<>();
        for (int g = 0; g < WINDOWS.length; g++)
        {
            specs.add(new SubgroupSpec(name(g), DeliveryMode.ORDERED, WINDOWS[g], SLOT, MAX_MESSAGE));
        }
        try (TestCluster c = new TestCluster(s.members(), transport, SpindleOptions.ALL_ON, i -> specs,
            i -> s.counts()[i] > 0 ? Role.WRITER_READER : Role.READER))
        {
            final Plan[] plans = new Plan[s.members()];
            final List<Thread> threads = new ArrayList<>();
            long committed = 0;
            for (int m = 0; m < s.members(); m++)
            {
                plans[m] = s.plan(m);
                for (int g = 0; g < WINDOWS.length; g++)
                {
                    committed += Arrays.stream(plans[m].commitLength()[g]).filter(x -> x >= 0).count();
                    if (s.counts()[m] > 0)
                    {
                        threads.add(start(c.groups.get(m), g, m, plans[m]));
                    }
                }
            }
            for (final Thread t : threads)
            {
                t.join(60_000);
                assertThat(t.isAlive()).as("sender %s still claiming after 60 s, %s", t.getName(), s).isFalse();
            }
            Senders.awaitDelivered(c.recorders, committed);
            for (int g = 0; g < WINDOWS.length; g++)
            {
                final List<TestCluster.Delivery> first = of(c.recorders.get(0), g);
                for (int m = 1; m < s.members(); m++)
                {
                    assertThat(of(c.recorders.get(m), g)).as("%s window %d: member %d vs member 0, %s", transport,
                        WINDOWS[g], m, s).isEqualTo(first);
                }
                assertExactlyTheCommitted(first, g, plans, c, transport + " window " + WINDOWS[g] + ", " + s);
            }
            for (final TestCluster.Recorder r : c.recorders)
            {
                assertThat(r.count).as("%s: deliveries in total (committed %d), %s", transport, committed, s)
                    .isEqualTo(committed);
            }
        }
    }

    private static List<TestCluster.Delivery> of(final TestCluster.Recorder recorder, final int g)
    {
        final List<TestCluster.Delivery> mine = new ArrayList<>();
        for (final TestCluster.Delivery d : recorder.list())
        {
            if (d.firstWord() >>> 48 == g)
            {
                mine.add(d);
            }
        }
        return mine;
    }

    /** Per sender: the committed claims, in claim order, with their committed lengths; no aborted claim. */
    private static void assertExactlyTheCommitted(final List<TestCluster.Delivery> got, final int g,
        final Plan[] plans, final TestCluster c, final String what)
    {
        for (int m = 0; m < plans.length; m++)
        {
            final long id = c.groups.get(m).memberId();
            final List<long[]> expected = new ArrayList<>();
            final int[] commit = plans[m].commitLength()[g];
            for (int n = 0; n < commit.length; n++)
            {
                if (commit[n] >= 0)
                {
                    expected.add(new long[] {word(g, m, n), commit[n]});
                }
            }
            final List<long[]> delivered = new ArrayList<>();
            for (final TestCluster.Delivery d : got)
            {
                if (d.sender() == id)
                {
                    final int n = (int)(d.firstWord() & 0xffffffffL);
                    assertThat(commit[n]).as("%s: claim %d of sender %d was aborted but delivered", what, n, m)
                        .isNotNegative();
                    delivered.add(new long[] {d.firstWord(), d.length()});
                }
            }
            assertThat(delivered).as("%s: sender %d's committed claims (word, length)", what, m)
                .containsExactlyElementsOf(expected);
        }
    }

    private static Thread start(final Group group, final int g, final int sender, final Plan plan)
    {
        return Thread.ofPlatform().name("claim-sender-" + sender + "-w" + WINDOWS[g]).start(() ->
        {
            final SlotClaim claim = new SlotClaim();
            final Subgroup subgroup = group.subgroup(name(g));
            final int[] claimLength = plan.claimLength()[g];
            final int[] commitLength = plan.commitLength()[g];
            for (int n = 0; n < claimLength.length; n++)
            {
                final int rc = subgroup.claim(claimLength[n], claim, 60_000_000_000L);
                if (rc != ClaimResult.OK)
                {
                    throw new AssertionError("claim failed: " + ClaimResult.describe(rc));
                }
                final long word = word(g, sender, n);
                final MemorySegment buffer = claim.buffer();
                if (commitLength[n] < 0)
                {
                    // Bytes that would pass the recorder's torn-message check if they were ever delivered.
                    Senders.fill(buffer, claimLength[n], word);
                    claim.abort();
                }
                else
                {
                    // The whole claim is written, then committed shorter: only the committed prefix travels.
                    buffer.asSlice(0, claimLength[n]).fill((byte)0x5a);
                    Senders.fill(buffer, commitLength[n], word);
                    claim.commit(commitLength[n]);
                }
            }
        });
    }

    @org.junit.jupiter.api.Test
    void commitLongerThanTheClaimAbortsIt() throws Exception
    {
        try (TestCluster c = new TestCluster(2, "local", SpindleOptions.ALL_ON,
            i -> List.of(new SubgroupSpec("w", DeliveryMode.ORDERED, 2, SLOT, MAX_MESSAGE)), i -> Role.WRITER_READER))
        {
            final Subgroup w = c.groups.get(0).subgroup("w");
            final SlotClaim claim = new SlotClaim();
            assertThat(w.claim(32, claim, 10_000_000_000L)).isEqualTo(ClaimResult.OK);
            Senders.fill(claim.buffer(), 32, 7);
            final Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(() -> claim.commit(33));
            assertThat(thrown).isInstanceOf(IllegalArgumentException.class);
            // The claim was aborted, so the sender lock is free and the next message is delivered alone.
            assertThat(w.claim(32, claim, 10_000_000_000L)).isEqualTo(ClaimResult.OK);
            Senders.fill(claim.buffer(), 32, 8);
            claim.commit(32);
            Senders.awaitDelivered(c.recorders, 1);
            for (final TestCluster.Recorder r : c.recorders)
            {
                assertThat(r.list()).extracting(TestCluster.Delivery::firstWord).containsExactly(8L);
            }
        }
    }
}
