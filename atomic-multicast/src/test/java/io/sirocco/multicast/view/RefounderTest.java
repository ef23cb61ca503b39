package io.sirocco.multicast.view;

import io.sirocco.multicast.model.DeliveryMode;
import io.sirocco.multicast.model.Member;
import io.sirocco.multicast.model.Role;
import io.sirocco.multicast.model.SubgroupSpec;
import io.sirocco.multicast.model.View;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rule that re-forms a group every member of which is out of its views ({@link Refounder}), on the in-JVM and the
 * {@code /dev/shm} registries: who founds, when nobody may, and that two founders never both publish a view id.
 */
class RefounderTest
{
    private static final SubgroupSpec SPEC = SubgroupSpec.of("a", DeliveryMode.ORDERED);

    private final String name = "rf" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 8);

    @AfterEach
    void cleanUp()
    {
        LocalRegistry.forget(name);
        ShmRegistry.destroy(name);
    }

    private MembershipRegistry registry(final String kind)
    {
        return "local".equals(kind) ? LocalRegistry.forGroup(name) : new ShmRegistry(name);
    }

    /** A member of this host whose process is this one (alive). */
    private static Member live(final long id)
    {
        return member(id, Member.localHost(), ProcessHandle.current().pid());
    }

    private static Member member(final long id, final String host, final long pid)
    {
        return new Member(id, host, pid, "", 0, List.of(new Member.Registration(SPEC, Role.WRITER_READER)), "");
    }

    /** Installs view 5 of these members (and view 4 of the first one before it). */
    private static void installedViews(final MembershipRegistry r, final Member... members)
    {
        r.publish("v4", new View(4, List.of(members[0])));
        r.publish("v5", new View(5, List.of(members)));
    }

    @ParameterizedTest(name = "{0} registry")
    @ValueSource(strings = {"local", "shm"})
    void onlyTheLowestLookingMemberFoundsTheNextViewAndNobodyFoundsAfterIt(final String kind)
    {
        final MembershipRegistry r = registry(kind);
        final Member m1 = live(1);
        final Member m2 = live(2);
        final Member m3 = live(3);
        installedViews(r, m3, m1, m2);
        for (final Member m : List.of(m1, m2, m3))
        {
            r.markOut(m, true);
        }
        assertThat(Refounder.found(r, m3, ViewManager::alive)).as("member 3 is not the lowest").isEmpty();
        assertThat(Refounder.found(r, m2, ViewManager::alive)).as("member 2 is not the lowest").isEmpty();
        final Optional<View> founded = Refounder.found(r, m1, ViewManager::alive);
        assertThat(founded).as("member 1 founds").isPresent();
        assertThat(founded.get().viewId()).isEqualTo(6);
        assertThat(founded.get().members()).containsExactly(m1);
        assertThat(r.latestInstalled().map(View::viewId)).contains(6L);
        assertThat(r.latestContaining(1)).map(View::viewId).contains(6L);
        // Its view runs now: member 1 is unmarked and alive, so nobody founds again (members 2 and 3 wait to be added).
        assertThat(r.outMarks()).extracting(m -> m.member().memberId()).containsExactlyInAnyOrder(2L, 3L);
        assertThat(Refounder.found(r, m2, ViewManager::alive)).isEmpty();
        assertThat(Refounder.found(r, m3, ViewManager::alive)).isEmpty();
        assertThat(r.latestInstalled().map(View::viewId)).contains(6L);
    }

    @ParameterizedTest(name = "{0} registry")
    @ValueSource(strings = {"local", "shm"})
    void aLiveMemberOfTheLatestViewWithoutAMarkKeepsEveryoneWaiting(final String kind)
    {
        final MembershipRegistry r = registry(kind);
        final Member m1 = live(1);
        final Member m2 = live(2);
        final Member m3 = live(3);
        installedViews(r, m1, m2, m3);
        r.markOut(m1, true);
        r.markOut(m2, true);
        assertThat(Refounder.found(r, m1, ViewManager::alive)).as("member 3 may still run the group").isEmpty();
        assertThat(r.latestInstalled().map(View::viewId)).contains(5L);
        // A member of another host cannot be told dead: it keeps everyone waiting too.
        final MembershipRegistry r2 = registry(kind);
        r2.publish("v7", new View(7, List.of(m1, member(9, "elsewhere", 1))));
        assertThat(Refounder.found(r2, m1, ViewManager::alive)).isEmpty();
    }

    @ParameterizedTest(name = "{0} registry")
    @ValueSource(strings = {"local", "shm"})
    void goneAndDeadMembersNeitherBlockNorFound(final String kind) throws Exception
    {
        final MembershipRegistry r = registry(kind);
        final Process p = new ProcessBuilder("true").start();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        final Member dead = member(1, Member.localHost(), p.pid());
        final Member gone = live(2);
        final Member m3 = live(3);
        final Member m4 = live(4);
        installedViews(r, dead, gone, m3, m4);
        for (final Member m : List.of(dead, gone, m3, m4))
        {
            r.announce(m);
        }
        r.markOut(gone, false);
        r.markOut(m3, true);
        r.markOut(m4, true);
        // The dead member has no mark at all (it crashed in its view), the gone one left for good.
        assertThat(Refounder.found(r, m4, ViewManager::alive)).isEmpty();
        final Optional<View> founded = Refounder.found(r, m3, ViewManager::alive);
        assertThat(founded).as("member 3, the lowest live looking member, founds").isPresent();
        assertThat(founded.get().viewId()).isEqualTo(6);
        assertThat(r.outMarks()).as("the gone member's mark is cleared with the view it mattered for")
            .extracting(m -> m.member().memberId()).containsExactly(4L);
        assertThat(r.announced()).as("the dead member's announcement is withdrawn: the founder must not add it")
            .extracting(Member::memberId).doesNotContain(1L);
    }

    @Test
    void aStaleLowestMarkLetsTheNextMemberFound() throws Exception
    {
        final ShmRegistry r = new ShmRegistry(name);
        final Member m1 = live(1);
        final Member m2 = live(2);
        installedViews(r, m1, m2);
        r.markOut(m1, true);
        r.markOut(m2, true);
        Files.setLastModifiedTime(r.directory().resolve("out-1"),
            FileTime.fromMillis(System.currentTimeMillis() - Refounder.FRESH_MS - 5_000));
        final Optional<View> founded = Refounder.found(r, m2, ViewManager::alive);
        assertThat(founded).as("member 2 founds in place of the silent member 1").isPresent();
        assertThat(founded.get().members()).containsExactly(m2);
        // Member 1 polls again (its mark renewed first): it finds member 2's view running and waits.
        r.markOut(m1, true);
        assertThat(Refounder.found(r, m1, ViewManager::alive)).isEmpty();
        assertThat(r.latestInstalled().map(View::viewId)).contains(6L);
    }

    @ParameterizedTest(name = "{0} registry")
    @ValueSource(strings = {"local", "shm"})
    void aFounderThatLosesTheRaceMarksItselfAgainAndTheWinnersViewStands(final String kind)
    {
        final MembershipRegistry shared = registry(kind);
        final Member m1 = live(1);
        final Member m2 = live(2);
        installedViews(shared, m1, m2);
        shared.markOut(m1, true);
        shared.markOut(m2, true);
        // Member 1 decided to found view 6; just before it publishes, another member (one that took member 1's mark
        // for stale) publishes view 6 first.
        final View winner = new View(6, List.of(m2));
        final MembershipRegistry racing = new Racing(shared, () -> shared.publishFirst("v6", winner));
        assertThat(Refounder.found(racing, m1, ViewManager::alive)).isEmpty();
        assertThat(shared.read("v6").map(View::encode)).as("the winner's view stands").contains(winner.encode());
        assertThat(shared.outMarks()).as("member 1 looks again").extracting(m -> m.member().memberId())
            .contains(1L);
    }

    /** A registry that runs {@code before} right before each {@link #publishFirst}, then forwards it. */
    private static final class Racing extends ForwardingRegistry
    {
        private final Runnable before;

        Racing(final MembershipRegistry delegate, final Runnable before)
        {
            super(delegate);
            this.before = before;
        }

        @Override
        public boolean publishFirst(final String key, final View view)
        {
            before.run();
            return super.publishFirst(key, view);
        }
    }

    @ParameterizedTest(name = "{0} registry")
    @ValueSource(strings = {"local", "shm"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void ofConcurrentPublishersOfOneKeyExactlyOneWins(final String kind) throws Exception
    {
        final int threads = 4;
        final ExecutorService pool = Executors.newFixedThreadPool(threads);
        try
        {
            for (int round = 0; round < 50; round++)
            {
                final String key = "v" + (100 + round);
                final CyclicBarrier start = new CyclicBarrier(threads);
                final List<Future<Boolean>> fs = new ArrayList<>();
                for (int t = 0; t < threads; t++)
                {
                    final View v = new View(100 + round, List.of(live(t + 1)));
                    final MembershipRegistry r = registry(kind);
                    fs.add(pool.submit(() ->
                    {
                        start.await();
                        return r.publishFirst(key, v);
                    }));
                }
                int winners = 0;
                long winner = -1;
                for (int t = 0; t < threads; t++)
                {
                    if (fs.get(t).get())
                    {
                        winners++;
                        winner = t + 1;
                    }
                }
                assertThat(winners).as("publishers of %s that succeeded", key).isEqualTo(1);
                assertThat(registry(kind).read(key).map(v -> v.members().getFirst().memberId())).contains(winner);
            }
        }
        finally
        {
            pool.shutdownNow();
        }
    }
}
