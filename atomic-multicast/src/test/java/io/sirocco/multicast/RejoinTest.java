package io.sirocco.multicast;

import io.sirocco.multicast.model.ClaimResult;
import io.sirocco.multicast.model.DeliveryHandler;
import io.sirocco.multicast.model.DeliveryMode;
import io.sirocco.multicast.model.Role;
import io.sirocco.multicast.model.SlotClaim;
import io.sirocco.multicast.model.SubgroupSpec;
import io.sirocco.multicast.model.View;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A falsely suspected member rejoins by itself ({@link Rejoiner}): three members in one JVM over {@code local}, a
 * 400 ms suspicion timeout; member 102's delivery upcall stalls its predicate thread for 3 s (a member overloaded
 * past the timeout), so the two others remove it and it excludes itself when it runs again. It must then be taken
 * back in by a view change, with its subgroup handle working again: messages sent after the rejoin reach it.
 */
class RejoinTest
{
    private static final SubgroupSpec SPEC = SubgroupSpec.of("a", DeliveryMode.ORDERED).withWindow(16);

    /** Counts deliveries; stalls the predicate thread once, on the first message while {@code stall} is set. */
    private static final class StallingRecorder implements DeliveryHandler
    {
        final AtomicInteger delivered = new AtomicInteger();
        volatile boolean stall;

        @Override
        public void onMessage(final long senderId, final int senderRank, final long index, final long seq,
            final MemorySegment payload, final int length)
        {
            delivered.incrementAndGet();
            if (stall)
            {
                stall = false;
                try
                {
                    Thread.sleep(3_000);
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /** Remembers the exclusion and the rejoin it saw. */
    private static final class Events implements MembershipListener
    {
        volatile String excluded;
        volatile View rejoined;

        @Override
        public void onViewInstalled(final View view, final List<Long> joined, final List<Long> left)
        {
        }

        @Override
        public void onExcluded(final String reason)
        {
            excluded = reason;
        }

        @Override
        public void onRejoined(final View view)
        {
            rejoined = view;
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void falselySuspectedMemberIsTakenBackInAndReceivesAgain() throws Exception
    {
        final String name = "rj" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 8);
        final List<StallingRecorder> recorders = new ArrayList<>();
        final Events events = new Events();
        final List<Group> groups = new ArrayList<>();
        final ExecutorService pool = Executors.newFixedThreadPool(3);
        try
        {
            final List<Future<Group>> fs = new ArrayList<>();
            for (int i = 0; i < 3; i++)
            {
                final StallingRecorder rec = new StallingRecorder();
                recorders.add(rec);
                final GroupConfig cfg = GroupConfig.defaults(name).withTransport("local").withRegistry("local")
                    .withMemberId(100 + i).withContact(i == 0, 3).withIdle(50, 10, 50_000)
                    .withFailureDetection(10, 400);
                final MembershipListener listener = i == 2 ? events : null;
                fs.add(pool.submit(() -> Group.join(cfg, List.of(new Group.SubgroupRegistration(SPEC,
                    Role.WRITER_READER, rec)), listener, Duration.ofSeconds(30))));
            }
            for (final Future<Group> f : fs)
            {
                groups.add(f.get());
            }
            final Group a = groups.get(0);
            final Group c = groups.get(2);
            final long firstViewId = c.view().viewId();
            recorders.get(2).stall = true;
            send(a, 1);
            await("member 102 excluded", () -> events.excluded != null);
            await("member 102 back in a view of three", () -> events.rejoined != null && c.exclusion() == null
                && c.view().members().size() == 3 && a.view().viewId() == c.view().viewId());
            assertThat(c.view().viewId()).as("a later view took it back").isGreaterThan(firstViewId + 1);
            assertThat(a.view().rankOf(c.memberId())).isGreaterThanOrEqualTo(0);
            final int before = recorders.get(2).delivered.get();
            send(a, 20);
            await("member 102 receives again", () -> recorders.get(2).delivered.get() >= before + 20);
            for (final Group g : groups)
            {
                assertThat(g.predicateEngine().failure()).isNull();
            }
        }
        finally
        {
            pool.shutdown();
            groups.forEach(Group::close);
        }
    }

    private static void send(final Group g, final int n)
    {
        final SlotClaim claim = new SlotClaim();
        for (int i = 0; i < n; )
        {
            final int rc = g.subgroup("a").claim(16, claim, TimeUnit.SECONDS.toNanos(5));
            if (rc == ClaimResult.OK)
            {
                claim.buffer().set(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, 0, i);
                claim.buffer().set(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, 8, i);
                claim.commit();
                i++;
            }
            else if (rc != ClaimResult.VIEW_CHANGING && rc != ClaimResult.BACK_PRESSURED)
            {
                throw new AssertionError("claim failed: " + rc);
            }
        }
    }

    private static void await(final String what, final BooleanSupplier condition) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadline > 0)
            {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(5);
        }
    }
}
