package io.sirocco.log;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

import io.sirocco.log.entry.LogEntry;
import io.sirocco.log.entry.LogEntryDescriptor;

import static org.assertj.core.api.Assertions.assertThat;

class LogEntryDescriptorTest
{
    @Property(tries = 300)
    void headerRoundTripsWithEveryFieldWidthAndCrcCatchesAnyBitFlip(
        @ForAll final long keyHash,
        @ForAll final long sequence,
        @ForAll @IntRange(min = 0, max = 70_000) final int length,
        @ForAll @IntRange(min = 0, max = 0xFFFF) final int epoch,
        @ForAll final int version,
        @ForAll final boolean tombstone,
        @ForAll @IntRange(min = 0, max = 1_000_000) final int flipSeed)
    {
        final ByteBuffer buffer = ByteBuffer.allocate(LogEntryDescriptor.MAX_HEADER_LENGTH + length + 8)
            .order(ByteOrder.LITTLE_ENDIAN);
        final int headerLength = LogEntryDescriptor.encodeHeader(buffer, 3, tombstone, keyHash, sequence, length,
            epoch, version);
        for (int i = 0; i < length; i++)
        {
            buffer.put(3 + headerLength + i, (byte)(i * 13 + keyHash));
        }
        final CRC32C crc = new CRC32C();
        LogEntryDescriptor.sealChecksum(buffer, 3, headerLength, length, crc);
        final LogEntry entry = new LogEntry();
        assertThat(LogEntryDescriptor.parse(buffer, 3, buffer.limit(), entry)).isTrue();
        assertThat(entry.keyHash()).isEqualTo(keyHash);
        assertThat(entry.sequence()).isEqualTo(sequence);
        assertThat(entry.length()).isEqualTo(length);
        assertThat(entry.epoch()).isEqualTo(epoch);
        assertThat(entry.version()).isEqualTo(version);
        assertThat(entry.tombstone()).isEqualTo(tombstone);
        assertThat(entry.headerLength()).isEqualTo(headerLength);
        assertThat(LogEntryDescriptor.entryLength(buffer, 3)).isEqualTo(headerLength + length);
        assertThat(LogEntryDescriptor.checksum(buffer, 3, headerLength, length, crc)).isEqualTo(entry.crc());
        if (version == 0 && sequence >= 0 && sequence < 256)
        {
            assertThat(headerLength).isEqualTo(16 + (length == 0 ? 0 : length < 256 ? 1 : length < 65536 ? 2 : 3));
        }
        // A single flipped bit anywhere in the entry is caught (by the CRC, or by the header no longer parsing).
        final int at = 3 + flipSeed % (headerLength + length);
        buffer.put(at, (byte)(buffer.get(at) ^ (1 << (flipSeed % 8))));
        final boolean parses = LogEntryDescriptor.parse(buffer, 3, buffer.limit(), entry);
        if (parses)
        {
            assertThat(LogEntryDescriptor.checksum(buffer, 3, entry.headerLength(), entry.length(), crc))
                .isNotEqualTo(entry.crc());
        }
    }
}
