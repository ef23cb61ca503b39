package io.sirocco.pubsub.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

class RecordCodecTest
{
    @Property(tries = 200)
    void announcementsRoundTrip(@ForAll @StringLength(max = 40) final String topic,
        @ForAll @StringLength(max = 40) final String partition, @ForAll @IntRange(min = 3, max = 4) final int kind,
        @ForAll @IntRange(min = 0, max = 1) final int reliability, @ForAll final long guid,
        @ForAll final byte[] userData, @ForAll @StringLength(max = 40) final String filter,
        @ForAll @StringLength(max = 10) final String parameter)
    {
        final EndpointRecord record = new EndpointRecord(kind, guid, guid & ~0xFFFFFL, topic, "T::Type", "t.Type",
            reliability, 100, 1, Long.MAX_VALUE, 0, 0, Long.MAX_VALUE, 0, 1, 0, false, true, 1, 7,
            List.of(partition), userData, "host", 42).withFilter(filter, List.of(parameter, "'x'"));
        final EndpointRecord decoded = RecordCodec.decode(RecordCodec.announce(record));
        assertThat(decoded).usingRecursiveComparison().ignoringFields("userData").isEqualTo(record);
        assertThat(Arrays.equals(decoded.userData(), userData)).isTrue();
    }

    @Property(tries = 100)
    void aWritersLifespanRoundTrips(@ForAll @IntRange(min = 0) final int lifespanMs)
    {
        final EndpointRecord record = writer(lifespanMs * 1_000_000L);
        assertThat(RecordCodec.decode(RecordCodec.announce(record)).lifespanNs()).isEqualTo(lifespanMs * 1_000_000L);
    }

    @Test
    void anAnnouncementWithoutTheLifespanFieldMeansAnInfiniteLifespan()
    {
        final byte[] full = RecordCodec.announce(writer(5_000_000L));
        // Without the lifespan and the (empty) TOPIC_DATA and GROUP_DATA that follow it.
        final byte[] old = Arrays.copyOf(full, full.length - Long.BYTES - 2 * Integer.BYTES);
        final EndpointRecord decoded = RecordCodec.decode(old);
        assertThat(decoded.lifespanNs()).isEqualTo(Long.MAX_VALUE);
        assertThat(decoded.topicName()).isEqualTo("T");
    }

    @Test
    void aNegativeLifespanIsRejected()
    {
        final byte[] bytes = RecordCodec.announce(writer(5_000_000L));
        java.nio.ByteBuffer.wrap(bytes).putLong(bytes.length - Long.BYTES - 2 * Integer.BYTES, -1L);
        assertThatThrownBy(() -> RecordCodec.decode(bytes)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("lifespan");
    }

    @Test
    void topicAndGroupDataRoundTripAndAreEmptyFromAnOlderPeer()
    {
        final EndpointRecord plain = writer(5_000_000L);
        final EndpointRecord record = new EndpointRecord(plain.kind(), plain.guid(), plain.participantGuid(),
            plain.topicName(), plain.typeName(), plain.typeClassName(), plain.reliabilityKind(), plain.maxBlockingNs(),
            plain.durabilityKind(), plain.deadlineNs(), plain.latencyBudgetNs(), plain.livelinessKind(),
            plain.leaseNs(), plain.ownershipKind(), plain.destinationOrderKind(), plain.presentationScope(),
            plain.coherentAccess(), plain.orderedAccess(), plain.historyKind(), plain.historyDepth(),
            plain.partitions(), plain.userData(), plain.hostName(), plain.pid(), plain.ownershipStrength(),
            plain.filterExpression(), plain.filterParameters(), plain.lifespanNs(), new byte[] {1, 2, 3},
            new byte[] {4});
        final byte[] full = RecordCodec.announce(record);
        final EndpointRecord decoded = RecordCodec.decode(full);
        assertThat(decoded.topicData()).containsExactly(1, 2, 3);
        assertThat(decoded.groupData()).containsExactly(4);
        final EndpointRecord older = RecordCodec.decode(Arrays.copyOf(full, full.length - 3 - 1 - 2 * Integer.BYTES));
        assertThat(older.topicData()).isEmpty();
        assertThat(older.groupData()).isEmpty();
        assertThat(older.lifespanNs()).isEqualTo(5_000_000L);
    }

    private static EndpointRecord writer(final long lifespanNs)
    {
        return new EndpointRecord(EndpointRecord.WRITER, 1L << 20 | 1, 1L << 20, "T", "T::Type", "t.Type", 1, 100, 1,
            Long.MAX_VALUE, 0, 0, Long.MAX_VALUE, 0, 0, 0, false, false, 0, 1, List.of(), new byte[0], "host", 42, 0,
            "", List.of(), lifespanNs);
    }

    @Test
    void retractionsCarryTheGuid()
    {
        final byte[] message = RecordCodec.retract(0x1234_5678_9ABC_DEF0L);
        assertThat(RecordCodec.op(message)).isEqualTo(RecordCodec.RETRACT);
        assertThat(RecordCodec.retractedGuid(message)).isEqualTo(0x1234_5678_9ABC_DEF0L);
        final byte[] afterMark = RecordCodec.retractAfterMark(0x1234_5678_9ABC_DEF0L);
        assertThat(RecordCodec.op(afterMark)).isEqualTo(RecordCodec.RETRACT_AFTER_MARK);
        assertThat(RecordCodec.retractedGuid(afterMark)).isEqualTo(0x1234_5678_9ABC_DEF0L);
    }

    @Property(tries = 300)
    void truncatedOrCorruptBytesAreRejectedNotFatal(@ForAll @IntRange(min = 1, max = 60) final int cut,
        @ForAll final byte noise)
    {
        final EndpointRecord record = EndpointRecord.participant(1L << 20, new byte[] {1, 2}, "h", 1);
        final byte[] full = RecordCodec.announce(record);
        final byte[] broken = Arrays.copyOf(full, Math.max(1, full.length - cut));
        broken[broken.length / 2] ^= noise;
        try
        {
            RecordCodec.decode(broken);
        }
        catch (final IllegalArgumentException expected)
        {
            assertThat(expected.getMessage()).isNotBlank();
        }
    }

    @Test
    void unknownKindsAreRejected()
    {
        final byte[] bytes = RecordCodec.announce(EndpointRecord.participant(1L << 20, new byte[0], "h", 1));
        bytes[4] = 9;
        assertThatThrownBy(() -> RecordCodec.decode(bytes)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("kind");
    }
}
