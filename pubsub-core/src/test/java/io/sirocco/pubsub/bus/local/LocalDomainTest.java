package io.sirocco.pubsub.bus.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.sirocco.pubsub.bus.DiscoveryHandler;
import io.sirocco.pubsub.bus.EndpointRecord;
import org.junit.jupiter.api.Test;

/**
 * Discovery order in the in-process domain. The owner of a record may act on it at once on its own thread (a writer
 * replays its history and starts writing), so every other member must know the record before the owner is told.
 */
class LocalDomainTest
{
    private static int nextDomain = 9_000;

    /** A member whose discovered table is filled synchronously, as ParticipantImpl's is. */
    private static final class Member implements DiscoveryHandler
    {
        final long guid;
        final Map<Long, EndpointRecord> discovered = new ConcurrentHashMap<>();
        final List<Long> announced = new ArrayList<>();
        Runnable onOwnRecord = () -> { };

        Member(final long guid)
        {
            this.guid = guid;
        }

        @Override
        public void onAnnounce(final EndpointRecord record)
        {
            discovered.put(record.guid(), record);
            announced.add(record.guid());
            if (record.participantGuid() == guid)
            {
                onOwnRecord.run();
            }
        }

        @Override
        public void onRetract(final long guid, final boolean participantFailed)
        {
            discovered.remove(guid);
        }
    }

    private static EndpointRecord writer(final long participantGuid, final int index)
    {
        return new EndpointRecord(EndpointRecord.WRITER, participantGuid | index, participantGuid, "T", "T::Type",
            "t.Type", 1, 100, 1, Long.MAX_VALUE, 0, 0, Long.MAX_VALUE, 0, 0, 0, false, false, 0, 1, List.of(),
            new byte[0], "host", 1);
    }

    @Test
    void theOwnerOfARecordIsToldAfterEveryOtherMember()
    {
        final LocalDomain domain = LocalDomain.of(nextDomain++);
        // The writer's participant joins first, so in join order it would be told first.
        final Member owner = new Member(0x1000_0000_0000_0000L);
        final Member early = new Member(0x2000_0000_0000_0000L);
        final Member late = new Member(0x3000_0000_0000_0000L);
        final EndpointRecord record = writer(owner.guid, 1);
        final List<String> missing = new ArrayList<>();
        owner.onOwnRecord = () ->
        {
            // What the owner's discovery thread could do right now (replay history, write): it reaches the others.
            for (final Member other : List.of(early, late))
            {
                if (!other.discovered.containsKey(record.guid()))
                {
                    missing.add(Long.toHexString(other.guid));
                }
            }
        };
        domain.join(owner.guid, owner);
        domain.join(early.guid, early);
        domain.join(late.guid, late);

        domain.announce(record);

        assertThat(missing).as("members that did not know the writer when its owner was told").isEmpty();
        assertThat(owner.announced).containsExactly(record.guid());
        assertThat(early.announced).containsExactly(record.guid());
        assertThat(late.announced).containsExactly(record.guid());
    }

    @Test
    void aJoinerReplaysEveryEarlierRecordAndSeesLaterOnes()
    {
        final LocalDomain domain = LocalDomain.of(nextDomain++);
        final Member first = new Member(0x1000_0000_0000_0000L);
        domain.join(first.guid, first);
        domain.announce(writer(first.guid, 1));
        final Member joiner = new Member(0x2000_0000_0000_0000L);
        domain.join(joiner.guid, joiner);
        domain.announce(writer(first.guid, 2));

        assertThat(joiner.announced).containsExactly(first.guid | 1, first.guid | 2);
        assertThat(first.announced).containsExactly(first.guid | 1, first.guid | 2);

        domain.leave(first.guid);
        assertThat(joiner.discovered).isEmpty();
    }
}
