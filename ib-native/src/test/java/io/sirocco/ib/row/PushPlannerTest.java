package io.sirocco.ib.row;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

final class PushPlannerTest
{
    private static final int MEMBERS = 4;
    private static final int ME = 1;

    private final Arena arena = Arena.ofAuto();
    private final MemorySegment row = arena.allocate(4096, 64);
    private final RecordingRowWriteVerbs verbs = new RecordingRowWriteVerbs(MEMBERS);
    private final List<String> suspicions = new ArrayList<>();
    private final AtomicLong clockNs = new AtomicLong();

    private PushPlanner planner(final PushPlannerConfig config)
    {
        return new PushPlanner(verbs, row, ME, MEMBERS, config,
            (rank, reason) -> suspicions.add(rank + ": " + reason), clockNs::get);
    }

    @Test
    void bytesGoToEveryPeerButSelfAsOneLazyWriteOfTheRange()
    {
        final PushPlanner planner = planner(new PushPlannerConfig(8, 64, 64, 1_000_000));

        planner.pushBytes(128, 960);

        assertThat(verbs.posts).extracting(RecordingRowWriteVerbs.Post::peer).containsExactly(0, 2, 3);
        assertThat(verbs.posts).allSatisfy(p ->
        {
            assertThat(p.inline()).isFalse();
            assertThat(p.rowOffset()).isEqualTo(128);
            assertThat(p.lengthBytes()).isEqualTo(960);
            assertThat(p.signaled()).isFalse();
        });
        assertThat(planner.pushCount()).isEqualTo(3);
    }

    @Test
    void guardFollowsItsDataOnEveryPeerInlineWithTheSnapshottedValue()
    {
        final PushPlanner planner = planner(new PushPlannerConfig(8, 64, 64, 1_000_000));
        row.set(ValueLayout.JAVA_LONG, 3000, 41);
        final long snapshot = row.get(ValueLayout.JAVA_LONG, 3000); // the caller snapshots first
        row.set(ValueLayout.JAVA_LONG, 3000, 42);                    // a later commit, not yet covered by data

        planner.pushBytes(0, 2048);
        planner.pushGuard(3000, snapshot);

        for (final int peer : new int[] {0, 2, 3})
        {
            final List<RecordingRowWriteVerbs.Post> posts = verbs.postsTo(peer);
            assertThat(posts).hasSize(2);
            assertThat(posts.get(0).inline()).isFalse();
            assertThat(posts.get(1).inline()).isTrue();
            assertThat(posts.get(1).rowOffset()).isEqualTo(3000);
            assertThat(posts.get(1).values()).containsExactly(41L);
            assertThat(posts.get(1).wrId()).isGreaterThan(posts.get(0).wrId());
        }
    }

    @Test
    void countersAreSnapshottedAtCallTimeAndSplitIntoInlineWrites()
    {
        final PushPlanner planner = planner(new PushPlannerConfig(8, 64, 32, 1_000_000));
        for (int i = 0; i < 6; i++)
        {
            row.set(ValueLayout.JAVA_LONG, 512 + 8L * i, 100 + i);
        }

        planner.pushCounters(512, 6);
        for (int i = 0; i < 6; i++)
        {
            row.set(ValueLayout.JAVA_LONG, 512 + 8L * i, -1); // later changes must not leak into what was posted
        }

        final List<RecordingRowWriteVerbs.Post> toPeer = verbs.postsTo(0);
        assertThat(toPeer).hasSize(2).allSatisfy(p -> assertThat(p.inline()).isTrue());
        assertThat(toPeer.get(0).rowOffset()).isEqualTo(512);
        assertThat(toPeer.get(0).values()).containsExactly(100L, 101L, 102L, 103L);
        assertThat(toPeer.get(1).rowOffset()).isEqualTo(544);
        assertThat(toPeer.get(1).values()).containsExactly(104L, 105L);
        assertThat(planner.pushCount()).isEqualTo(3);
    }

    @Test
    void everyKthRequestPerPeerIsSignaledAndCompletionsRetireTheQueue()
    {
        final PushPlanner planner = planner(new PushPlannerConfig(4, 16, 64, 1_000_000));

        for (int i = 0; i < 40; i++)
        {
            planner.pushBytes(0, 64);
            planner.pollCompletions();
        }

        for (final int peer : new int[] {0, 2, 3})
        {
            final List<RecordingRowWriteVerbs.Post> posts = verbs.postsTo(peer);
            for (int i = 0; i < posts.size(); i++)
            {
                assertThat(posts.get(i).signaled()).as("request %d to peer %d", i, peer).isEqualTo((i + 1) % 4 == 0);
                assertThat(posts.get(i).outstandingAfterPost()).isLessThanOrEqualTo(16);
            }
            assertThat(planner.outstanding(peer)).isZero();
        }
        assertThat(suspicions).isEmpty();
    }

    @Test
    void theRequestThatFillsTheSendQueueIsSignaledAndThePlannerWaitsForRoom()
    {
        verbs.autoComplete = false;
        final PushPlanner planner = planner(new PushPlannerConfig(8, 8, 64, 1_000_000_000L));

        for (int i = 0; i < 8; i++)
        {
            planner.pushBytes(0, 8);
        }
        final List<RecordingRowWriteVerbs.Post> toPeer0 = verbs.postsTo(0);
        assertThat(toPeer0.get(7).signaled()).isTrue();
        assertThat(planner.outstanding(0)).isEqualTo(8);

        // the queue is full: the next push must poll; complete the signaled request so room appears
        for (final int peer : new int[] {0, 2, 3})
        {
            verbs.pendingCompletions.add(new long[] {verbs.postsTo(peer).get(7).wrId(), 0});
        }
        planner.pushBytes(0, 8);
        assertThat(planner.outstanding(0)).isEqualTo(1);
        assertThat(suspicions).isEmpty();
    }

    @Test
    void aQueueThatStaysFullPastTheDeadlineFreezesAndSuspectsThePeer()
    {
        verbs.autoComplete = false;
        final PushPlanner planner = new PushPlanner(verbs, row, ME, MEMBERS, new PushPlannerConfig(4, 4, 64, 5_000_000),
            (rank, reason) -> suspicions.add(rank + ": " + reason), () -> clockNs.addAndGet(1_000_000));

        for (int i = 0; i < 5; i++)
        {
            planner.pushBytes(0, 8);
        }

        assertThat(suspicions).hasSize(3).allSatisfy(s -> assertThat(s).contains("send queue stayed full"));
        assertThat(planner.isFrozen(0)).isTrue();
        assertThat(verbs.frozenPeers).containsExactlyInAnyOrder(0, 2, 3);
    }

    @Test
    void anErrorCompletionFreezesTheRowReportsOnceAndLaterPushesSkipIt()
    {
        verbs.autoComplete = false;
        final PushPlanner planner = planner(new PushPlannerConfig(1, 16, 64, 1_000_000_000L));
        planner.pushBytes(0, 8);
        final long toPeer2 = verbs.postsTo(2).get(0).wrId();

        verbs.pendingCompletions.add(new long[] {toPeer2, 12}); // IBV_WC_RETRY_EXC_ERR
        verbs.pendingCompletions.add(new long[] {toPeer2, 5});  // a flush error afterwards
        planner.pollCompletions();
        planner.pushBytes(0, 8);
        planner.pushGuard(8, 1);

        assertThat(suspicions).containsExactly("2: RDMA write completed with error IBV_WC_RETRY_EXC_ERR (12)");
        assertThat(verbs.postsTo(2)).hasSize(1);
        assertThat(verbs.postsTo(0)).hasSize(3);
    }

    @Test
    void aSignaledRequestPastItsDeadlineFreezesAndSuspectsThePeer()
    {
        verbs.autoComplete = false;
        final PushPlanner planner = planner(new PushPlannerConfig(1, 16, 64, 10_000_000));
        planner.pushBytes(0, 8);
        for (final int peer : new int[] {0, 3})
        {
            verbs.pendingCompletions.add(new long[] {verbs.postsTo(peer).get(0).wrId(), 0});
        }

        clockNs.set(5_000_000);
        planner.pollCompletions();
        assertThat(suspicions).isEmpty();
        clockNs.set(10_000_001);
        planner.pollCompletions();

        assertThat(suspicions).singleElement().asString().startsWith("2: no completion");
        assertThat(planner.isFrozen(2)).isTrue();
        assertThat(planner.isFrozen(0)).isFalse();
    }

    @Test
    void aFailedPostFreezesAndSuspects()
    {
        verbs.failPostsTo = 3;
        final PushPlanner planner = planner(new PushPlannerConfig(4, 16, 64, 1_000_000));

        planner.pushGuard(0, 7);
        planner.pushGuard(0, 8);

        assertThat(suspicions).singleElement().asString().startsWith("3: ").contains("errno 12");
        assertThat(verbs.postsTo(0)).hasSize(2);
    }

    @Test
    void explicitFreezeStopsWritesWithoutASuspicion()
    {
        final PushPlanner planner = planner(PushPlannerConfig.defaults());
        planner.freeze(0);
        planner.freeze(0);
        planner.pushBytes(0, 64);

        assertThat(verbs.posts).extracting(RecordingRowWriteVerbs.Post::peer).containsExactly(2, 3);
        assertThat(verbs.frozenPeers).containsExactly(0);
        assertThat(suspicions).isEmpty();
    }
}
