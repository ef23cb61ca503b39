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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a loaded machine does to a test JVM (a GC pause, the process starved): every member's predicate thread stops
 * at once, for longer than the suspicion timeout, then all run again. Nobody was silent while anybody looked, so no
 * member may be suspected: the view stays, and a message sent after the stall is delivered in it. Before the failure
 * detector counted silence on the scanner's own running time ({@code view.HeartbeatSilence}), the first member to
 * scan after the stall suspected the others (ViewChangeTest, RejoinTest, TcpRowSwitchesTest beside a CPU hog).
 */
class StalledJvmTest
{
    private static final long SUSPICION_MS = 2_000;
    private static final long STALL_MS = 5_000;

    @AfterEach
    void clearHook()
    {
        TestCluster.Recorder.slowHook = null;
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aStallOfEveryMemberAtOnceSuspectsNobody() throws Exception
    {
        final int members = 3;
        try (TestCluster c = new TestCluster(members, "local", SpindleOptions.ALL_ON,
            i -> List.of(SubgroupSpec.of("s", DeliveryMode.ORDERED)), i -> Role.WRITER_READER, SUSPICION_MS))
        {
            final long viewId = c.groups.get(0).view().viewId();
            final CountDownLatch held = new CountDownLatch(members);
            final CountDownLatch released = new CountDownLatch(1);
            TestCluster.Recorder.slowHook = (r, payload) ->
            {
                if (r.count == 0)
                {
                    held.countDown();
                    try
                    {
                        released.await(60, TimeUnit.SECONDS);
                    }
                    catch (final InterruptedException ex)
                    {
                        Thread.currentThread().interrupt();
                    }
                }
            };
            send(c.groups.get(0), 0);
            assertThat(held.await(60, TimeUnit.SECONDS)).as("every predicate thread held in its upcall").isTrue();
            // The stall itself: longer than the suspicion timeout, every member stopped.
            Thread.sleep(STALL_MS);
            released.countDown();
            send(c.groups.get(1), 1);
            Senders.awaitDelivered(c.recorders, 2);
            for (final Group g : c.groups)
            {
                assertThat(g.view().viewId()).as("member %d still in the view of before the stall", g.memberId())
                    .isEqualTo(viewId);
            }
            c.assertHealthy();
        }
    }

    private static void send(final Group g, final long n)
    {
        final SlotClaim claim = new SlotClaim();
        final int rc = g.subgroup("s").claim(16, claim, TimeUnit.SECONDS.toNanos(30));
        assertThat(rc).as("claim on member %d: %s", g.memberId(), ClaimResult.describe(rc)).isEqualTo(ClaimResult.OK);
        Senders.fill(claim.buffer(), 16, Senders.word((int)g.memberId(), n));
        claim.commit();
    }
}
