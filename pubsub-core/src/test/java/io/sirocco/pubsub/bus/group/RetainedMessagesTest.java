package io.sirocco.pubsub.bus.group;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/** What {@link RetainedMessages} keeps for a member away, what it re-sends when it is back, and its bounds. */
class RetainedMessagesTest
{
    private static final int LOOKBACK = 8;
    private final ArrayDeque<byte[]> pool = new ArrayDeque<>();
    private final RetainedMessages retained = new RetainedMessages("t.test.R", LOOKBACK);
    private int next = 1;

    @Test
    void aMemberBackGetsTheLookBackAndEverythingConfirmedWhileAway()
    {
        confirm(20);
        retained.left(7, 0);
        confirm(30);
        final List<Integer> back = numbers(retained.returned(7, 1));
        assertThat(back).as("the last %d before it left, then the 30 confirmed while away", LOOKBACK)
            .containsExactlyElementsOf(range(20 - LOOKBACK + 1, 50));
        assertThat(retained.anyAway()).isFalse();
        assertThat(numbers(retained.returned(7, 2))).as("a second return: nothing kept for it").isEmpty();
    }

    @Test
    void withNobodyAwayOnlyTheLookBackStays()
    {
        confirm(100);
        assertThat(pool).as("returned to the pool").hasSize(100 - LOOKBACK);
        retained.left(3, 0);
        assertThat(numbers(retained.returned(3, 1))).containsExactlyElementsOf(range(100 - LOOKBACK + 1, 100));
    }

    @Test
    void eachMemberGetsWhatItMissedFromItsOwnDeparture()
    {
        retained.left(1, 0);
        confirm(50);
        retained.left(2, 0);
        confirm(10);
        assertThat(numbers(retained.returned(2, 1))).containsExactlyElementsOf(range(50 - LOOKBACK + 1, 60));
        assertThat(numbers(retained.returned(1, 1))).containsExactlyElementsOf(range(1, 60));
    }

    @Test
    void pastTheCountBoundTheOldestAreDroppedAndNotPretendedKept()
    {
        retained.left(5, 0);
        confirm(RetainedMessages.MAX_KEPT + 10);
        final List<Integer> back = numbers(retained.returned(5, 1));
        assertThat(back).hasSize(RetainedMessages.MAX_KEPT);
        assertThat(back.getFirst()).isEqualTo(11);
        assertThat(back.getLast()).isEqualTo(RetainedMessages.MAX_KEPT + 10);
    }

    @Test
    void aMemberAwayTooLongIsGivenUp()
    {
        retained.left(9, 0);
        confirm(100);
        retained.expire(TimeUnit.MILLISECONDS.toNanos(RetainedMessages.AWAY_MS) + 1);
        assertThat(retained.anyAway()).isFalse();
        confirm(1);
        assertThat(numbers(retained.returned(9, TimeUnit.MILLISECONDS.toNanos(RetainedMessages.AWAY_MS) + 2)))
            .isEmpty();
        retained.left(4, 0);
        assertThat(numbers(retained.returned(4, 1))).as("back to the look-back only")
            .containsExactlyElementsOf(range(101 - LOOKBACK + 1, 101));
    }

    private void confirm(final int count)
    {
        for (int i = 0; i < count; i++)
        {
            final int n = next++;
            retained.confirmed(new byte[] {(byte)(n >>> 24), (byte)(n >>> 16), (byte)(n >>> 8), (byte)n}, pool);
        }
    }

    private static List<Integer> numbers(final List<byte[]> messages)
    {
        final List<Integer> out = new ArrayList<>();
        for (final byte[] m : messages)
        {
            out.add(((m[0] & 0xff) << 24) | ((m[1] & 0xff) << 16) | ((m[2] & 0xff) << 8) | (m[3] & 0xff));
        }
        return out;
    }

    private static List<Integer> range(final int from, final int to)
    {
        final List<Integer> out = new ArrayList<>();
        for (int i = from; i <= to; i++)
        {
            out.add(i);
        }
        return out;
    }
}
