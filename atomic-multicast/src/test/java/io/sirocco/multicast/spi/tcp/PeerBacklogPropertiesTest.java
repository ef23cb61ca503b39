package io.sirocco.multicast.spi.tcp;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.io.ByteArrayOutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link PeerBacklog} keeps push order whatever the mix of appends and sends: the operations of the frames sent from
 * it, in order, are exactly the operations appended, in order; every frame sent starts with the frame header; merged
 * frames stay within {@link PeerBacklog#MERGE_BYTES} (a frame appended larger goes whole); the byte count is the
 * live content. Steps: a positive number appends a frame with that many operation bytes, 0 sends the first frame.
 */
class PeerBacklogPropertiesTest
{
    private static final int HEADER = 12;

    @Provide
    Arbitrary<List<Integer>> steps()
    {
        return Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(3, Arbitraries.integers().between(1, 2_000)),
            net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(60_000, 150_000)),
            net.jqwik.api.Tuple.of(3, Arbitraries.just(0)))
            .list().ofMaxSize(300);
    }

    @Property(tries = 200)
    void sentOperationsAreTheAppendedOnesInOrder(@ForAll("steps") final List<Integer> steps)
    {
        final PeerBacklog backlog = new PeerBacklog();
        final ByteArrayOutputStream appended = new ByteArrayOutputStream();
        final ByteArrayOutputStream sent = new ByteArrayOutputStream();
        final MemorySegment frame = Arena.ofAuto().allocate(HEADER + 150_000);
        frame.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, 42L);
        frame.set(ValueLayout.JAVA_INT_UNALIGNED, 8, 3);
        long live = 0;
        int counter = 0;
        for (final int step : steps)
        {
            if (step > 0)
            {
                for (int i = 0; i < step; i++)
                {
                    frame.set(ValueLayout.JAVA_BYTE, HEADER + i, (byte)(counter++ * 31 + 7));
                }
                appended.writeBytes(frame.asSlice(HEADER, step).toArray(ValueLayout.JAVA_BYTE));
                backlog.append(frame, HEADER + step);
                live += step;
            }
            else if (!backlog.isEmpty())
            {
                live -= sendFirst(backlog, sent);
            }
            assertThat(backlog.isEmpty()).isEqualTo(live == 0);
        }
        while (!backlog.isEmpty())
        {
            sendFirst(backlog, sent);
        }
        assertThat(sent.toByteArray()).isEqualTo(appended.toByteArray());
        assertThat(backlog.bytes()).isZero();
    }

    /** Takes the first frame as a send would: checks its header and size, keeps its operations; returns their size. */
    private static int sendFirst(final PeerBacklog backlog, final ByteArrayOutputStream sent)
    {
        final int n = backlog.firstLength();
        final MemorySegment bytes = backlog.buffer().asSlice(backlog.firstOffset(), n);
        assertThat(bytes.get(ValueLayout.JAVA_LONG_UNALIGNED, 0)).isEqualTo(42L);
        assertThat(bytes.get(ValueLayout.JAVA_INT_UNALIGNED, 8)).isEqualTo(3);
        final int ops = n - HEADER;
        assertThat(ops).isPositive();
        if (n > PeerBacklog.MERGE_BYTES)
        {
            // Only a frame appended larger than the merge limit exceeds it, and it was not merged with another.
            assertThat(ops).isGreaterThanOrEqualTo(60_000);
        }
        sent.writeBytes(bytes.asSlice(HEADER, ops).toArray(ValueLayout.JAVA_BYTE));
        backlog.removeFirst();
        return ops;
    }
}
