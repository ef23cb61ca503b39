package io.sirocco.multicast;

import io.sirocco.multicast.model.ClaimResult;
import io.sirocco.multicast.model.SlotClaim;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;

/** Sender threads for tests: each message carries (senderNo << 32 | n) in its first and last 8 bytes. */
final class Senders
{
    private Senders()
    {
    }

    static long word(final int senderNo, final long n)
    {
        return ((long)senderNo << 32) | n;
    }

    static void fill(final MemorySegment buffer, final int length, final long word)
    {
        buffer.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, word);
        for (int i = 8; i + 8 <= length - 8; i += 8)
        {
            buffer.set(ValueLayout.JAVA_LONG_UNALIGNED, i, i ^ word);
        }
        buffer.set(ValueLayout.JAVA_LONG_UNALIGNED, length - 8, word);
    }

    /**
     * Starts one thread per sending member; each sends {@code counts[i]} messages of random size in
     * {@code [16, maxSize]}, pausing up to {@code maxDelayUs} after a random third of them.
     */
    static List<Thread> start(final List<Group> groups, final String subgroup, final int[] counts, final int maxSize,
        final int maxDelayUs, final long seed)
    {
        return start(groups, subgroup, counts, maxSize, maxDelayUs, seed, (senderNo, n) ->
        {
        });
    }

    /** Called on a sender thread before it commits message {@code n} (its claim is held). */
    @FunctionalInterface
    interface BeforeCommit
    {
        void beforeCommit(int senderNo, long n) throws InterruptedException;
    }

    /** Like {@link #start(List, String, int[], int, int, long)}, calling {@code hook} before every commit. */
    static List<Thread> start(final List<Group> groups, final String subgroup, final int[] counts, final int maxSize,
        final int maxDelayUs, final long seed, final BeforeCommit hook)
    {
        final List<Thread> threads = new ArrayList<>();
        for (int s = 0; s < groups.size(); s++)
        {
            if (counts[s] == 0)
            {
                continue;
            }
            final int senderNo = s;
            final Group g = groups.get(s);
            final Thread t = Thread.ofPlatform().name("test-sender-" + s).start(() ->
            {
                final Random rnd = new Random(seed + senderNo);
                final SlotClaim claim = new SlotClaim();
                for (long n = 0; n < counts[senderNo]; n++)
                {
                    final int len = 16 + rnd.nextInt(maxSize - 15);
                    final int rc = g.subgroup(subgroup).claim(len, claim, 60_000_000_000L);
                    if (rc != ClaimResult.OK)
                    {
                        throw new AssertionError("claim failed: " + ClaimResult.describe(rc));
                    }
                    fill(claim.buffer(), len, word(senderNo, n));
                    try
                    {
                        hook.beforeCommit(senderNo, n);
                    }
                    catch (final InterruptedException e)
                    {
                        throw new AssertionError("sender " + senderNo + " interrupted", e);
                    }
                    claim.commit();
                    if (maxDelayUs > 0 && rnd.nextInt(3) == 0)
                    {
                        LockSupport.parkNanos(rnd.nextInt(maxDelayUs) * 1000L);
                    }
                }
            });
            threads.add(t);
        }
        return threads;
    }

    static void awaitDelivered(final List<TestCluster.Recorder> recorders, final long expected)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline)
        {
            boolean all = true;
            for (final TestCluster.Recorder r : recorders)
            {
                all &= r.count >= expected;
            }
            if (all)
            {
                return;
            }
            Thread.sleep(2);
        }
    }
}
