package io.sirocco.pubsub.rtps.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;

class WriterHistoryTest
{
    @Test
    void keepsConsecutiveChangesUntilReleasedAndReusesSlots()
    {
        final WriterHistory history = new WriterHistory(4);
        final byte[] key = new byte[16];
        for (int i = 1; i <= 4; i++)
        {
            key[0] = (byte) i;
            assertThat(history.add(sample(i, i * 10), 0, i * 10, key, 1000L + i)).isEqualTo(i);
        }
        assertThat(history.isFull()).isTrue();
        assertThatThrownBy(() -> history.add(sample(5, 8), 0, 8, key, 0)).isInstanceOf(IllegalStateException.class);

        history.releaseBelow(3);
        assertThat(history.firstSN()).isEqualTo(3);
        assertThat(history.contains(2)).isFalse();
        assertThat(history.add(sample(5, 8), 0, 8, key, 1005L)).isEqualTo(5);
        assertThat(history.lastSN()).isEqualTo(5);
        for (long sn = 3; sn <= 4; sn++)
        {
            assertThat(history.length(sn)).isEqualTo((int) sn * 10);
            assertThat(history.payload(sn).get(0)).isEqualTo((byte) sn);
            assertThat(history.timestamp(sn)).isEqualTo(1000L + sn);
            assertThat(history.keyHash(sn)[0]).isEqualTo((byte) sn);
        }
        assertThat(history.payload(5).get(0)).isEqualTo((byte) 5);
        assertThat(history.length(5)).isEqualTo(8);

        history.releaseBelow(100); // never past what was written
        assertThat(history.isEmpty()).isTrue();
        assertThat(history.firstSN()).isEqualTo(6);
    }

    private static ByteBuffer sample(final int fill, final int length)
    {
        final ByteBuffer b = ByteBuffer.allocate(length);
        for (int i = 0; i < length; i++)
        {
            b.put(i, (byte) fill);
        }
        return b;
    }
}
