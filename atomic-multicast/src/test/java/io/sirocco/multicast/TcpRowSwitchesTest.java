package io.sirocco.multicast;

import io.sirocco.multicast.model.DeliveryMode;
import io.sirocco.multicast.model.Role;
import io.sirocco.multicast.model.SubgroupSpec;
import io.sirocco.multicast.view.ViewContext;
import io.sirocco.multicast.predicate.PredicateEngine;
import io.sirocco.multicast.smc.SpindleOptions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The tcp row transport's two latency switches ({@code sirocco.multicast.tcp.inlineReceive}: frames applied on the
 * receiving thread; {@code sirocco.multicast.tcp.coalesce}: one frame per predicate pass) in every combination: three
 * members send concurrently through a small window (many passes, frames mixing data, guards and counters), and every
 * member delivers the same complete sequence, per-sender FIFO.
 */
class TcpRowSwitchesTest
{
    @ParameterizedTest(name = "inlineReceive {0}, coalesce {1}")
    @CsvSource({"true, true", "true, false", "false, true", "false, false"})
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void shouldDeliverIdenticalCompleteSequencesWhateverTheSwitches(final boolean inline, final boolean coalesce)
        throws Exception
    {
        System.setProperty("sirocco.multicast.tcp.inlineReceive", Boolean.toString(inline));
        System.setProperty("sirocco.multicast.tcp.coalesce", Boolean.toString(coalesce));
        try (TestCluster c = new TestCluster(3, "tcp", SpindleOptions.ALL_ON,
            i -> List.of(new SubgroupSpec("s", DeliveryMode.ORDERED, 3, 128, 2048)), i -> Role.WRITER_READER))
        {
            if (!inline)
            {
                // The switch took effect: the endpoints hand frames to a handler thread.
                assertThat(Thread.getAllStackTraces().keySet()).anyMatch(t -> t.getName().matches(
                    "sirocco-node10[123]-handler-0"));
            }
            final int[] counts = {300, 300, 300};
            for (final Thread t : Senders.start(c.groups, "s", counts, 2048, 0, 3))
            {
                t.join(60_000);
            }
            Senders.awaitDelivered(c.recorders, 900);
            for (int m = 0; m < 3; m++)
            {
                final List<TestCluster.Delivery> got = c.recorders.get(m).list();
                assertThat(got).hasSize(900);
                MulticastPropertiesTest.assertPerSenderFifoComplete(got, counts, c);
                assertThat(got).isEqualTo(c.recorders.get(0).list());
            }
            c.assertHealthy();
        }
        finally
        {
            System.clearProperty("sirocco.multicast.tcp.inlineReceive");
            System.clearProperty("sirocco.multicast.tcp.coalesce");
        }
    }

    /**
     * The inline-pass switches ({@code sirocco.multicast.inlineReceivePass}: the receiving thread runs the view's
     * triggers; {@code sirocco.multicast.inlineCommitPush}: a committing thread pushes its commit) in every combination,
     * in both reliable modes: same complete sequences everywhere (ORDERED), per-sender FIFO and complete (UNORDERED).
     * With either on, threads other than the predicate thread did run passes (a committing thread only while the
     * engine thread is parked).
     */
    @ParameterizedTest(name = "{0}: inlineReceivePass {1}, inlineCommitPush {2}")
    @CsvSource({"ORDERED, true, true", "ORDERED, true, false", "ORDERED, false, true", "ORDERED, false, false",
        "UNORDERED, true, true"})
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void shouldDeliverCompleteSequencesWhateverTheInlinePassSwitches(final DeliveryMode mode,
        final boolean receivePass, final boolean commitPush) throws Exception
    {
        System.setProperty(ViewContext.INLINE_RECEIVE_PASS_PROP, Boolean.toString(receivePass));
        System.setProperty(ViewContext.INLINE_COMMIT_PUSH_PROP, Boolean.toString(commitPush));
        try (TestCluster c = new TestCluster(3, "tcp", SpindleOptions.ALL_ON,
            i -> List.of(new SubgroupSpec("s", mode, 3, 128, 2048)), i -> Role.WRITER_READER))
        {
            final int[] counts = {300, 300, 300};
            // A committing thread pushes only while the engine thread is parked. In the commit-push-only case each
            // sender, until one of its commits was pushed inline, waits before committing for its engine thread to
            // park (a random pause proved too short on a loaded machine), so that case exercises the inline push
            // every run. The engine can still be woken between the check and the commit: the next commit retries.
            final boolean awaitPark = commitPush && !receivePass;
            final Senders.BeforeCommit hook = (senderNo, n) ->
            {
                final PredicateEngine engine = c.groups.get(senderNo).predicateEngine();
                // Only this sender's commits run inline passes of this engine in this case (no inline receive
                // pass), so this thread reads its own writes.
                if (awaitPark && engine.inlinePasses() == 0)
                {
                    awaitParked(engine);
                }
            };
            for (final Thread t : Senders.start(c.groups, "s", counts, 2048, 0, 3, hook))
            {
                t.join(60_000);
            }
            Senders.awaitDelivered(c.recorders, 900);
            for (int m = 0; m < 3; m++)
            {
                final List<TestCluster.Delivery> got = c.recorders.get(m).list();
                assertThat(got).hasSize(900);
                MulticastPropertiesTest.assertPerSenderFifoComplete(got, counts, c);
                if (mode == DeliveryMode.ORDERED)
                {
                    assertThat(got).isEqualTo(c.recorders.get(0).list());
                }
            }
            final long inline = c.groups.stream().mapToLong(g -> g.predicateEngine().inlinePasses()).sum();
            if (receivePass || commitPush && mode == DeliveryMode.ORDERED)
            {
                assertThat(inline).isPositive();
            }
            else
            {
                assertThat(inline).isZero();
            }
            c.assertHealthy();
        }
        finally
        {
            System.clearProperty(ViewContext.INLINE_RECEIVE_PASS_PROP);
            System.clearProperty(ViewContext.INLINE_COMMIT_PUSH_PROP);
        }
    }

    /** Waits (bounded, generously: a loaded machine) until the engine thread is parked; returns anyway after 10 s. */
    private static void awaitParked(final PredicateEngine engine) throws InterruptedException
    {
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (!engine.isParked() && System.nanoTime() < deadline)
        {
            Thread.sleep(0, 50_000);
        }
    }
}
