package io.sirocco.multicast.view;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;

import io.sirocco.multicast.model.Member;
import org.junit.jupiter.api.Test;

/**
 * Which suspected members count against the majority of a view ({@link ViewState#leftOrDead}). A member that leaves,
 * and a member of this host whose process has ended, are on no side of a partition, so they do not count; any other
 * suspected member might run on behind a partition and does. Without the second rule, killing most of a view's
 * processes at once made the survivors exclude themselves as a minority (the soak's end, which stops every churn
 * process together, lost the long-lived pair's last samples that way).
 */
class MajorityRuleTest
{
    @Test
    void aLeavingMemberDoesNotCount()
    {
        assertThat(ViewState.leftOrDead(true, member(ProcessHandle.current().pid(), Member.localHost()))).isTrue();
    }

    @Test
    void aMemberOfThisHostWhoseProcessEndedDoesNotCount() throws Exception
    {
        final Process ended = new ProcessBuilder("true").start();
        assertThat(ended.waitFor(60, TimeUnit.SECONDS)).as("`true` ended").isTrue();
        assertThat(ViewState.leftOrDead(false, member(ended.pid(), Member.localHost()))).isTrue();
    }

    @Test
    void aMemberOfThisHostWhoseProcessRunsCounts()
    {
        assertThat(ViewState.leftOrDead(false, member(ProcessHandle.current().pid(), Member.localHost()))).isFalse();
    }

    @Test
    void aMemberOfAnotherHostCountsEvenWithAPidUnusedHere() throws Exception
    {
        final Process ended = new ProcessBuilder("true").start();
        assertThat(ended.waitFor(60, TimeUnit.SECONDS)).as("`true` ended").isTrue();
        // Another host's process cannot be seen from here: silence from it may be a partition.
        assertThat(ViewState.leftOrDead(false, member(ended.pid(), Member.localHost() + "-other"))).isFalse();
    }

    private static Member member(final long pid, final String host)
    {
        return new Member(7, host, pid, "endpoint", 1, List.of());
    }
}
