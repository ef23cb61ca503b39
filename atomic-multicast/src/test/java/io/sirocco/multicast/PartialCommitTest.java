package io.sirocco.multicast;

import io.sirocco.multicast.fault.FaultPoint;
import io.sirocco.multicast.model.DeliveryMode;
import io.sirocco.multicast.model.Role;
import io.sirocco.multicast.model.SubgroupSpec;
import io.sirocco.multicast.smc.SpindleOptions;
import io.sirocco.multicast.spi.ForwardingRowTransport;
import io.sirocco.multicast.spi.RowTransport;
import io.sirocco.multicast.spi.RowTransportContext;
import io.sirocco.multicast.spi.RowTransportProvider;
import io.sirocco.multicast.spi.local.LocalRowTransportProvider;
import io.sirocco.multicast.sst.SstLayout;
import io.sirocco.multicast.view.LocalRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The leader's commit reaches one member only, then the leader dies: over tcp each peer gets its own frame, so a
 * leader killed while pushing {@code COMMIT_NO} can leave rank 1 committed and ranks 2 and 3 not. Five members,
 * member 4 halts, the leader (rank 0) commits the change that removes it, its commit push reaches rank 1 only (the
 * transport below freezes the other peers just before it) and it crashes right after. The survivors must still agree:
 * without the members' echo of the commit rank 1 went on with the committed change (and, as the next shard leader,
 * waited for the others to drain) while ranks 2 and 3 waited for a proposal of the new leader, rank 1, which never
 * came: the view change stalled.
 */
class PartialCommitTest
{
    /** Group whose leader's commit push is cut (set by the test before the change starts). */
    static volatile String cutGroup = "";

    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void commitThatReachedOneMemberSurvivesItsLeader() throws Exception
    {
        try (TestCluster c = new TestCluster(5, Provider.NAME, SpindleOptions.ALL_ON,
            i -> List.of(SubgroupSpec.of("a", DeliveryMode.ORDERED).withWindow(8)), i -> Role.WRITER_READER,
            (i, group) -> LocalRegistry.forGroup(group), TestCluster.CRASH_SUSPICION_MS))
        {
            final Group leader = c.groups.get(0);
            final AtomicReference<FaultPoint> hit = ViewChangeTest.crashOnceAt(leader, FaultPoint.COMMIT_PUSHED);
            cutGroup = c.groupName;
            final List<Thread> senders = ViewChangeTest.sendThenHalt(c, c.groups.get(4));

            final List<Integer> survivors = List.of(1, 2, 3);
            ViewChangeTest.awaitSurvivorViews(c, survivors, 90);
            assertThat(hit.get()).as("the leader committed and crashed").isEqualTo(FaultPoint.COMMIT_PUSHED);
            leader.halt();
            ViewChangeTest.assertSurvivorViews(c, survivors, leader, c.groups.get(4));
            ViewChangeTest.SendersUntilClosed.stop(senders);
            ViewChangeTest.dropCrashedAndAssertSurvivorsAgree(c, survivors);
        }
        finally
        {
            cutGroup = "";
        }
    }

    /**
     * The {@code local} transport, except that in view 1 of {@link #cutGroup} rank 0's push of {@code COMMIT_NO}
     * reaches rank 1 only (the other peers are frozen just before it, as if the leader died between two frames).
     */
    public static final class Provider implements RowTransportProvider
    {
        static final String NAME = "local-partial-commit";
        private final LocalRowTransportProvider local = new LocalRowTransportProvider();

        @Override
        public String name()
        {
            return NAME;
        }

        @Override
        public RowTransport open(final RowTransportContext context)
        {
            final RowTransport t = local.open(context);
            final boolean leaderOfView1 = context.viewId() == 1 && context.myRank() == 0;
            final int ranks = context.members().size();
            return new ForwardingRowTransport(t)
            {
                @Override
                public void pushCounters(final long rowOffset, final int count)
                {
                    // cutGroup is read here, not at open: the test sets it once the group has formed.
                    if (leaderOfView1 && rowOffset == SstLayout.COMMIT_NO && context.groupName().equals(cutGroup))
                    {
                        for (int r = 2; r < ranks; r++)
                        {
                            delegate.freeze(r);
                        }
                    }
                    delegate.pushCounters(rowOffset, count);
                }
            };
        }
    }
}
