package io.sirocco.multicast.contact;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.sirocco.multicast.model.Member;
import io.sirocco.multicast.model.View;
import org.junit.jupiter.api.Test;

/**
 * Which heard group a member's group merges into ({@link HeardMembers#survivor}), replayed on a made-up clock.
 *
 * <p>The case this pins down (NetnsDdsTest beside a CPU hog, static peers): three members A (the leader, rank 0),
 * B and C in view 6; A is killed; B and C install view 7 without it. A's last greeting, a second before its death,
 * said "group of 3 led by A"; still fresh, and that identity unchanged for longer than the merge delay, it "survived"
 * over view 7 (2 members led by B), so B and C left their live group to merge into a dead one and B's reader missed
 * everything written while it was out.
 */
class HeardMembersMergeTest
{
    private static final long A = 100;
    private static final long B = 200;
    private static final long C = 300;
    private static final long D = 400;
    private static final long FRESH_NS = TimeUnit.SECONDS.toNanos(2);
    private static final long DELAY_NS = TimeUnit.SECONDS.toNanos(5);

    private static long s(final double seconds)
    {
        return (long) (seconds * 1e9);
    }

    private static View view(final long viewId, final long... ids)
    {
        return new View(viewId, Arrays.stream(ids)
            .mapToObj(id -> new Member(id, "h" + id, id, "", 0, List.of(), "10.0.0." + id + ":7485")).toList());
    }

    /** The member greets once a second from {@code fromS} to {@code toS} (inclusive) with {@code group}. */
    private static void greets(final HeardMembers heard, final long id, final GroupIdentity group, final int fromS,
        final int toS)
    {
        for (int t = fromS; t <= toS; t++)
        {
            heard.hear(id, "10.0.0." + id + ":7485", true, true, group, s(t));
        }
    }

    @Test
    void aKilledLeaderOfTheLastViewIsNoGroupToMergeInto()
    {
        final HeardMembers heard = new HeardMembers();
        final View six = view(6, A, B, C);
        greets(heard, A, GroupIdentity.of(six), 0, 20);
        // A dies just after its greeting at 20 s; view 7 (B, C) is installed at 20.5 s.
        final View seven = view(7, B, C);
        final long installedNs = s(20.5);
        for (final double now : new double[] {20.6, 21, 21.9, 22.4, 30})
        {
            assertThat(heard.survivor(seven, installedNs, s(now), FRESH_NS, DELAY_NS))
                .as("at %s s: the dead leader's last greeting names view 6's group, not a running one", now).isNull();
        }
    }

    @Test
    void aLateGreetingOfTheDeadLeaderDoesNotMakeItASurvivor()
    {
        final HeardMembers heard = new HeardMembers();
        greets(heard, A, GroupIdentity.of(view(6, A, B, C)), 0, 20);
        final View seven = view(7, B, C);
        final long installedNs = s(20.5);
        // Sent before the kill, read only after view 7 was installed (a starved handler thread).
        heard.hear(A, "10.0.0.100:7485", true, true, new GroupIdentity(3, A), s(20.7));
        for (final double now : new double[] {20.8, 22, 22.6})
        {
            assertThat(heard.survivor(seven, installedNs, s(now), FRESH_NS, DELAY_NS)).as("at %s s", now).isNull();
        }
    }

    @Test
    void anotherGroupThatKeepsGreetingIsMergedIntoOnceTheDelayPassed()
    {
        final HeardMembers heard = new HeardMembers();
        final View mine = view(3, B, C);
        final long installedNs = s(6);
        // D runs a group of 3 (D and two others this member does not hear) since long before this view.
        greets(heard, D, new GroupIdentity(3, D), 0, 10);
        assertThat(heard.survivor(mine, installedNs, s(10.2), FRESH_NS, DELAY_NS))
            .as("heard for 4 s since this group has been what it is: not yet").isNull();
        greets(heard, D, new GroupIdentity(3, D), 11, 11);
        final HeardMembers.Peer survivor = heard.survivor(mine, installedNs, s(11.2), FRESH_NS, DELAY_NS);
        assertThat(survivor).as("heard from 6 s to 11 s").isNotNull();
        assertThat(survivor.memberId()).isEqualTo(D);
        assertThat(heard.survivor(mine, installedNs, s(20), FRESH_NS, DELAY_NS))
            .as("D not heard for 9 s: gone").isNull();
    }

    @Test
    void aGroupThatChangedItsIdentityIsHeardForTheWholeDelayAgain()
    {
        final HeardMembers heard = new HeardMembers();
        final View mine = view(3, B, C);
        greets(heard, D, new GroupIdentity(1, D), 0, 9);
        greets(heard, D, new GroupIdentity(3, D), 10, 14);
        assertThat(heard.survivor(mine, 0, s(14.5), FRESH_NS, DELAY_NS)).as("3 led by D heard from 10 s to 14 s")
            .isNull();
        greets(heard, D, new GroupIdentity(3, D), 15, 15);
        assertThat(heard.survivor(mine, 0, s(15.5), FRESH_NS, DELAY_NS)).isNotNull();
    }
}
