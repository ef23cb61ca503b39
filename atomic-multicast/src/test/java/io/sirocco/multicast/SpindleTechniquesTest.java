package io.sirocco.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.sirocco.multicast.model.ClaimResult;
import io.sirocco.multicast.model.DeliveryMode;
import io.sirocco.multicast.model.Role;
import io.sirocco.multicast.model.SlotClaim;
import io.sirocco.multicast.model.SubgroupSpec;
import io.sirocco.multicast.smc.SpindleOptions;
import io.sirocco.multicast.smc.SubgroupStats;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Tests that bite (issue 23): each Spindle technique has a test here that fails when it is switched off or its code
 * removed, by counting what the technique changes, never by timing. A member's predicate thread is held inside a
 * delivery upcall while {@link #K} messages pile up (committed on its side, or arrived from its peer), then released:
 * with batching, the next pass handles the pile in one batch; without, one message per pass. Push outside the lock:
 * the {@code probe-local} transport counts pushes made while the pusher holds the subgroup's sender lock.
 * Null-sends are bitten by {@link NullSendTest}. {@code scripts/technique-removal.sh} switches each technique off in
 * turn through the test-only system property {@value #OFF_PROPERTY} (comma-separated: sendBatching,
 * receiveBatching, deliveryBatching, nullSends, pushOutsideLock) and shows its test go red.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SpindleTechniquesTest
{
    /** Test-only: the techniques to switch off (the removal script's lever), read by {@link #optionsUnderTest()}. */
    static final String OFF_PROPERTY = "spindle.off";
    /** Messages piled up while the predicate thread is held. */
    private static final int K = 100;
    /** At most this many batches for the pile with batching on (one is typical; nulls and counters add a few). */
    private static final int BATCHED_AT_MOST = K / 4;
    private static final long CLAIM_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);

    /** All techniques on, minus those named in {@value #OFF_PROPERTY}. */
    static SpindleOptions optionsUnderTest()
    {
        final List<String> off = List.of(System.getProperty(OFF_PROPERTY, "").split(","));
        final SpindleOptions all = SpindleOptions.ALL_ON;
        return new SpindleOptions(!off.contains("sendBatching"), !off.contains("receiveBatching"),
            !off.contains("deliveryBatching"), !off.contains("nullSends"), !off.contains("pushOutsideLock"),
            all.selfReceipt(), all.publishOnCommit());
    }

    @AfterEach
    void clearHooks()
    {
        TestCluster.Recorder.slowHook = null;
        LockProbeRowTransportProvider.watched = new Subgroup[0];
    }

    @Test
    void sendBatchingPublishesAPileOfCommitsInOneBatch() throws Exception
    {
        try (TestCluster c = cluster(Role.WRITER_READER, Role.WRITER_READER))
        {
            final Group a = c.groups.get(0);
            final Holder hold = Holder.on(c.recorders.get(0));
            send(c.groups.get(1), 1);
            hold.awaitHeld();
            final SubgroupStats before = copy(a.stats());
            send(a, K);
            hold.release();
            Senders.awaitDelivered(c.recorders, K + 1);
            final SubgroupStats after = a.stats();
            assertThat(after.sentMessages - before.sentMessages).as("messages published").isGreaterThanOrEqualTo(K);
            assertThat(after.sendBatches - before.sendBatches)
                .as("send batches for %d commits made while the predicate thread was held", K)
                .isLessThanOrEqualTo(BATCHED_AT_MOST);
            c.assertHealthy();
        }
    }

    @Test
    void receiveBatchingTakesAPileOfArrivalsInOneBatch() throws Exception
    {
        try (TestCluster c = cluster(Role.WRITER, Role.READER))
        {
            final Group b = c.groups.get(1);
            final Holder hold = Holder.on(c.recorders.get(1));
            send(c.groups.get(0), 1);
            hold.awaitHeld();
            final SubgroupStats before = copy(b.stats());
            send(c.groups.get(0), K);
            awaitCommittedBy(c.groups.get(0), K + 1);
            hold.release();
            awaitDelivered(c.recorders.get(1), K + 1);
            final SubgroupStats after = b.stats();
            assertThat(after.receivedMessages - before.receivedMessages).as("messages received")
                .isGreaterThanOrEqualTo(K);
            assertThat(after.receiveBatches - before.receiveBatches)
                .as("receive batches for %d messages that arrived while the predicate thread was held", K)
                .isLessThanOrEqualTo(BATCHED_AT_MOST);
            c.assertHealthy();
        }
    }

    @Test
    void deliveryBatchingDeliversAPileOfStableMessagesInOneBatch() throws Exception
    {
        try (TestCluster c = cluster(Role.WRITER, Role.READER))
        {
            final Group b = c.groups.get(1);
            final Holder hold = Holder.on(c.recorders.get(1));
            send(c.groups.get(0), 1);
            hold.awaitHeld();
            final SubgroupStats before = copy(b.stats());
            send(c.groups.get(0), K);
            awaitCommittedBy(c.groups.get(0), K + 1);
            hold.release();
            awaitDelivered(c.recorders.get(1), K + 1);
            final SubgroupStats after = b.stats();
            assertThat(after.deliveredMessages - before.deliveredMessages).as("messages delivered")
                .isGreaterThanOrEqualTo(K);
            assertThat(after.deliverBatches - before.deliverBatches)
                .as("delivery batches for %d messages that became stable while the predicate thread was held", K)
                .isLessThanOrEqualTo(BATCHED_AT_MOST);
            c.assertHealthy();
        }
    }

    @Test
    void pushesHappenOutsideTheSenderLock() throws Exception
    {
        try (TestCluster c = new TestCluster(2, LockProbeRowTransportProvider.NAME, optionsUnderTest(),
            i -> List.of(spec()), i -> Role.WRITER_READER))
        {
            LockProbeRowTransportProvider.watched = new Subgroup[] {
                c.groups.get(0).subgroup("s"), c.groups.get(1).subgroup("s")};
            final long pushesBefore = LockProbeRowTransportProvider.PUSHES.get();
            final long lockedBefore = LockProbeRowTransportProvider.LOCKED_PUSHES.get();
            send(c.groups.get(0), K);
            send(c.groups.get(1), K);
            Senders.awaitDelivered(c.recorders, 2 * K);
            assertThat(LockProbeRowTransportProvider.PUSHES.get() - pushesBefore).as("pushes made")
                .isGreaterThan(0);
            assertThat(LockProbeRowTransportProvider.LOCKED_PUSHES.get() - lockedBefore)
                .as("pushes made while holding a sender lock").isZero();
            c.assertHealthy();
        }
    }

    private static SubgroupSpec spec()
    {
        return SubgroupSpec.of("s", DeliveryMode.ORDERED).withWindow(4 * K);
    }

    private static TestCluster cluster(final Role first, final Role second) throws Exception
    {
        return new TestCluster(2, "local", optionsUnderTest(), i -> List.of(spec()), i -> i == 0 ? first : second);
    }

    /** Commits {@code count} messages of 16 bytes from this test's thread. */
    private static void send(final Group g, final int count)
    {
        final SlotClaim claim = new SlotClaim();
        for (int n = 0; n < count; n++)
        {
            final int rc = g.subgroup("s").claim(16, claim, CLAIM_TIMEOUT_NS);
            if (rc != ClaimResult.OK)
            {
                throw new AssertionError("claim failed: " + ClaimResult.describe(rc));
            }
            Senders.fill(claim.buffer(), 16, Senders.word((int)g.memberId(), n));
            claim.commit();
        }
    }

    /** Waits until the sender's published count (its send statistics) covers {@code count} messages. */
    private static void awaitCommittedBy(final Group sender, final int count) throws InterruptedException
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (sender.stats().sentMessages < count)
        {
            assertThat(System.nanoTime() - deadlineNs).as("sender published %d messages", count).isNegative();
            Thread.sleep(2);
        }
    }

    private static void awaitDelivered(final TestCluster.Recorder recorder, final int count)
        throws InterruptedException
    {
        Senders.awaitDelivered(List.of(recorder), count);
    }

    private static SubgroupStats copy(final SubgroupStats stats)
    {
        final SubgroupStats copy = new SubgroupStats();
        stats.addTo(copy);
        return copy;
    }

    /** Holds one member's predicate thread inside its first delivery upcall until released. */
    private static final class Holder
    {
        private final CountDownLatch held = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);

        static Holder on(final TestCluster.Recorder recorder)
        {
            final Holder h = new Holder();
            TestCluster.Recorder.slowHook = (r, payload) ->
            {
                if (r == recorder && h.held.getCount() > 0)
                {
                    h.held.countDown();
                    try
                    {
                        h.released.await(60, TimeUnit.SECONDS);
                    }
                    catch (final InterruptedException ex)
                    {
                        Thread.currentThread().interrupt();
                    }
                }
            };
            return h;
        }

        void awaitHeld() throws InterruptedException
        {
            assertThat(held.await(60, TimeUnit.SECONDS)).as("predicate thread held in its upcall").isTrue();
        }

        void release()
        {
            released.countDown();
        }
    }
}
