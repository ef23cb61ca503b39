package io.sirocco.multicast;

import io.sirocco.multicast.fault.FaultPoint;
import io.sirocco.multicast.fault.InjectedCrash;
import io.sirocco.multicast.model.DeliveryMode;
import io.sirocco.multicast.model.Role;
import io.sirocco.multicast.model.SubgroupSpec;
import io.sirocco.multicast.model.View;
import io.sirocco.multicast.smc.SpindleOptions;
import io.sirocco.multicast.view.ForwardingRegistry;
import io.sirocco.multicast.view.LocalRegistry;
import io.sirocco.multicast.view.MembershipRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A member acknowledges a proposal only once its registry holds it. Member 2's registry never receives the proposals
 * of view 1's leader (rank 0), as when a network registry's copy travels on a connection the row frames overtake and
 * the leader dies before it is sent. Member 4 halts, the leader proposes its removal and is crashed right after its
 * commit (or, if it cannot commit because member 2 withholds its acknowledgement, a few seconds after proposing).
 * The three survivors must end in one 3-member view with none excluded. Without the rule member 2 acknowledged a
 * proposal it did not hold, the leader committed and died, member 2 could not install the committed view and excluded
 * itself, and the two others were no longer a majority of the view they installed.
 */
class ProposalWithheldTest
{
    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void memberAcknowledgesOnlyProposalsItsRegistryHolds() throws Exception
    {
        try (TestCluster c = new TestCluster(5, "local", SpindleOptions.ALL_ON,
            i -> List.of(SubgroupSpec.of("a", DeliveryMode.ORDERED).withWindow(8)), i -> Role.WRITER_READER,
            (i, group) -> i == 2 ? new WithholdingRegistry(LocalRegistry.forGroup(group)) : null,
            TestCluster.CRASH_SUSPICION_MS))
        {
            final Group leader = c.groups.get(0);
            final CountDownLatch proposed = new CountDownLatch(1);
            final CountDownLatch crashed = new CountDownLatch(1);
            leader.faultInjector((p, viewId, subgroup) ->
            {
                if (p == FaultPoint.PROPOSAL_PUSHED)
                {
                    proposed.countDown();
                }
                if (p == FaultPoint.COMMIT_PUSHED)
                {
                    crashed.countDown();
                    throw new InjectedCrash(p, leader.memberId());
                }
            });
            final List<Thread> senders = ViewChangeTest.sendThenHalt(c, c.groups.get(4));
            assertThat(proposed.await(60, TimeUnit.SECONDS)).as("the leader proposed").isTrue();
            // The longest the leader gets to commit; with the rule it cannot (member 2 does not acknowledge).
            crashed.await(3, TimeUnit.SECONDS);
            leader.halt();

            final List<Integer> survivors = List.of(1, 2, 3);
            ViewChangeTest.awaitSurvivorViews(c, survivors, 90);
            ViewChangeTest.assertSurvivorViews(c, survivors, leader, c.groups.get(4));
            ViewChangeTest.SendersUntilClosed.stop(senders);
            ViewChangeTest.dropCrashedAndAssertSurvivorsAgree(c, survivors);
        }
    }

    /** The group's registry, except that it never shows view 1's leader's (rank 0's) proposals for view 2. */
    private static final class WithholdingRegistry extends ForwardingRegistry
    {
        WithholdingRegistry(final MembershipRegistry delegate)
        {
            super(delegate);
        }

        @Override
        public Optional<View> read(final String key)
        {
            final Optional<View> v = delegate.read(key);
            if (key.startsWith("p") && (Long.parseLong(key.substring(1)) & 0xff) == 0
                && v.isPresent() && v.get().viewId() == 2)
            {
                return Optional.empty();
            }
            return v;
        }
    }
}
