package io.sirocco.multicast.contact;

import io.sirocco.multicast.model.Member;
import io.sirocco.multicast.model.View;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The merge rule of two groups of one name ({@link GroupIdentity}): larger survives, ties by lower leader id. */
class GroupIdentityTest
{
    @Property
    void ofTwoDifferentGroupsExactlyOneSurvives(@ForAll @IntRange(min = 1, max = 64) final int sizeA,
        @ForAll @LongRange(min = 1, max = Long.MAX_VALUE) final long leaderA,
        @ForAll @IntRange(min = 1, max = 64) final int sizeB,
        @ForAll @LongRange(min = 1, max = Long.MAX_VALUE) final long leaderB)
    {
        final GroupIdentity a = new GroupIdentity(sizeA, leaderA);
        final GroupIdentity b = new GroupIdentity(sizeB, leaderB);
        if (leaderA == leaderB)
        {
            assertThat(a.survivesOver(b)).as("one group seen at two views never merges with itself").isFalse();
            assertThat(b.survivesOver(a)).isFalse();
            return;
        }
        assertThat(a.survivesOver(b)).as("exactly one of %s and %s survives", a, b).isNotEqualTo(b.survivesOver(a));
        if (sizeA != sizeB)
        {
            assertThat(a.survivesOver(b)).as("the larger group survives").isEqualTo(sizeA > sizeB);
        }
        else
        {
            assertThat(a.survivesOver(b)).as("at equal size the lower leader id survives").isEqualTo(leaderA < leaderB);
        }
    }

    @Property
    void theRuleIsTransitiveSoEveryMemberPicksTheSameSurvivor(@ForAll @IntRange(min = 1, max = 4) final int s1,
        @ForAll @LongRange(min = 1, max = 6) final long l1, @ForAll @IntRange(min = 1, max = 4) final int s2,
        @ForAll @LongRange(min = 1, max = 6) final long l2, @ForAll @IntRange(min = 1, max = 4) final int s3,
        @ForAll @LongRange(min = 1, max = 6) final long l3)
    {
        final GroupIdentity a = new GroupIdentity(s1, l1);
        final GroupIdentity b = new GroupIdentity(s2, l2);
        final GroupIdentity c = new GroupIdentity(s3, l3);
        if (a.survivesOver(b) && b.survivesOver(c) && l1 != l3)
        {
            assertThat(a.survivesOver(c)).isTrue();
        }
    }

    @Property
    void wireFormRoundTrips(@ForAll @IntRange(min = 1, max = 64) final int size,
        @ForAll @LongRange(min = 1, max = Long.MAX_VALUE) final long leader)
    {
        final GroupIdentity g = new GroupIdentity(size, leader);
        assertThat(GroupIdentity.decode(g.encode())).isEqualTo(g);
    }

    @Test
    void outsideAnyViewOrMalformedHasNoIdentity()
    {
        assertThat(GroupIdentity.decode("")).isNull();
        assertThat(GroupIdentity.decode("3")).isNull();
        assertThat(GroupIdentity.decode("x 7")).isNull();
        assertThat(GroupIdentity.decode("0 7")).as("a group has a member").isNull();
    }

    @Test
    void identityOfAViewIsItsSizeAndRankZero()
    {
        final List<Member> members = new ArrayList<>();
        for (final long id : new long[] {42, 7, 99})
        {
            members.add(new Member(id, "h", 1, "", 0, List.of(), ""));
        }
        final GroupIdentity g = GroupIdentity.of(new View(5, members));
        assertThat(g).isEqualTo(new GroupIdentity(3, 42));
        assertThat(g.survivesOver(GroupIdentity.of(new View(9, members.subList(1, 3))))).isTrue();
        assertThat(GroupIdentity.of(new View(9, members.subList(1, 3))).survivesOver(new GroupIdentity(2, 8)))
            .as("equal size: leader 7 < 8").isTrue();
    }
}
