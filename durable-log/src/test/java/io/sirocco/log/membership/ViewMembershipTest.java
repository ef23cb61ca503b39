package io.sirocco.log.membership;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import io.sirocco.multicast.model.Member;
import io.sirocco.multicast.model.View;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The log's membership follows the multicast view: a node is a member while its multicast member is in the installed
 * view and has announced its log node, whatever the order of the two; a view without it makes it leave.
 */
class ViewMembershipTest
{
    private static View view(final long id, final long... members)
    {
        final List<Member> list = java.util.Arrays.stream(members)
            .mapToObj(m -> new Member(m, "h", 1, "", 1, List.of())).toList();
        return new View(id, list);
    }

    @Test
    void joinsWhenInTheViewAndAnnouncedAndLeavesWithTheView() throws Exception
    {
        final Membership membership = new Membership();
        final List<String> events = new CopyOnWriteArrayList<>();
        membership.addListener(new MembershipListener()
        {
            @Override
            public void onMemberJoined(final int member)
            {
                events.add("+" + member);
            }

            @Override
            public void onMemberLeft(final int member)
            {
                events.add("-" + member);
            }
        });
        try (ViewMembership adapter = new ViewMembership(membership, "test"))
        {
            adapter.onViewInstalled(view(1, 100, 200), List.of(100L, 200L), List.of());
            adapter.learn(100, 1);
            // Announced before its view: joins only when a view holds it.
            adapter.learn(300, 3);
            adapter.learn(200, 2);
            adapter.onViewInstalled(view(2, 100, 200, 300), List.of(300L), List.of());
            adapter.onViewInstalled(view(3, 100, 300), List.of(), List.of(200L));
            // A member that left is not brought back by a late repeat of its announcement.
            adapter.learn(200, 2);
            adapter.close();
            assertThat(events).containsExactly("+1", "+2", "+3", "-2");
            assertThat(membership.members()).containsExactly(1, 3);
        }
    }

    @Test
    void eventsRunOffTheCallingThreadInOrder() throws Exception
    {
        final Membership membership = new Membership();
        final List<String> threads = new CopyOnWriteArrayList<>();
        membership.addListener(new MembershipListener()
        {
            @Override
            public void onMemberJoined(final int member)
            {
                threads.add(Thread.currentThread().getName());
            }

            @Override
            public void onMemberLeft(final int member)
            {
            }
        });
        final ViewMembership adapter = new ViewMembership(membership, "t2");
        adapter.onViewInstalled(view(1, 7), List.of(7L), List.of());
        adapter.learn(7, 70);
        adapter.close();
        assertThat(threads).singleElement().asString().startsWith("sirocco-log-membership-t2");
    }
}
