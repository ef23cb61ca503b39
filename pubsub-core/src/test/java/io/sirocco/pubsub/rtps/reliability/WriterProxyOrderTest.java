package io.sirocco.pubsub.rtps.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * A reliable reader delivers each remote writer's samples in sequence order, once each: early samples wait for the
 * missing ones before them, which a resend fills or a GAP or HEARTBEAT firstSN declares irrelevant.
 */
class WriterProxyOrderTest
{
    @Test
    void aResendFillsTheGapAndReleasesTheHeldSamplesInOrder()
    {
        final DataFeeder f = new DataFeeder();
        f.data(1);
        f.data(3);
        f.data(4);
        assertThat(f.delivered).containsExactly(1L);
        assertThat(f.proxy.heldCount()).isEqualTo(2);
        f.data(2);
        assertThat(f.delivered).containsExactly(1L, 2L, 3L, 4L);
        assertThat(f.proxy.heldCount()).isZero();
    }

    @Test
    void duplicatesOfHeldAndDeliveredSamplesAreDropped()
    {
        final DataFeeder f = new DataFeeder();
        f.data(2);
        f.data(2);
        f.data(1);
        f.data(1);
        f.data(2);
        assertThat(f.delivered).containsExactly(1L, 2L);
    }

    @Test
    void aGapDeclaresTheMissingIrrelevantAndReleasesWhatFollows()
    {
        final DataFeeder f = new DataFeeder();
        f.data(4);
        f.data(6);
        f.gap(1, 4);
        assertThat(f.delivered).containsExactly(4L);
        f.gap(5, 6);
        assertThat(f.delivered).containsExactly(4L, 6L);
        f.data(5); // too late: irrelevant already
        f.data(7);
        assertThat(f.delivered).containsExactly(4L, 6L, 7L);
    }

    @Test
    void aHeartbeatFirstSnAboveTheMissingReleasesTheHeldSamples()
    {
        final DataFeeder f = new DataFeeder();
        f.data(2);
        f.data(5);
        assertThat(f.proxy.onHeartbeat(3, 5, 1)).isTrue();
        assertThat(f.delivered).containsExactly(2L);
        f.data(4);
        assertThat(f.delivered).containsExactly(2L);
        assertThat(f.proxy.onHeartbeat(4, 5, 2)).isTrue();
        assertThat(f.delivered).containsExactly(2L, 4L, 5L);
    }

    @Test
    void aHeartbeatFarAheadReleasesEveryHeldSampleAndMovesOn()
    {
        final DataFeeder f = new DataFeeder();
        for (long sn = 2; sn <= 256; sn++)
        {
            f.data(sn);
        }
        f.data(257); // beyond the window of base 1: dropped, the writer sends it again
        assertThat(f.proxy.heldCount()).isEqualTo(255);
        f.proxy.onHeartbeat(1_000_000, 1_000_001, 1);
        assertThat(f.delivered).hasSize(255).isSorted().startsWith(2L).endsWith(256L);
        f.data(1_000_001);
        f.data(1_000_000);
        assertThat(f.delivered).endsWith(1_000_000L, 1_000_001L);
        assertThat(f.proxy.heldCount()).isZero();
    }

    @Property(tries = 300)
    void anyArrivalOrderIsDeliveredInSequenceOrder(@ForAll @IntRange(min = 1, max = 600) final int changes,
        @ForAll @IntRange(min = 0, max = 40) final int gapPercent, @ForAll final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final BitSet gone = new BitSet();
        final List<Long> arrivals = new ArrayList<>();
        for (long sn = 1; sn <= changes; sn++)
        {
            if (random.nextInt(100) < gapPercent)
            {
                gone.set((int) sn);
            }
            else
            {
                arrivals.add(sn);
            }
        }
        final DataFeeder f = new DataFeeder();
        // shuffle within a window's reach (a writer resends what the reader's ACKNACK asks for), with duplicates
        for (int i = 0; i < arrivals.size(); i++)
        {
            final int j = Math.min(arrivals.size() - 1, i + random.nextInt(Math.min(200, arrivals.size())));
            java.util.Collections.swap(arrivals, i, j);
        }
        long nextGap = 1;
        for (final long sn : arrivals)
        {
            f.data(sn);
            if (random.nextInt(4) == 0)
            {
                f.data(arrivals.get(random.nextInt(arrivals.size()))); // a duplicate
            }
            if (random.nextInt(10) == 0 && nextGap <= changes)
            {
                nextGap = gapNext(f, gone, nextGap, changes);
            }
        }
        for (long sn = 1; sn <= changes; sn++)
        {
            // what the writer sends again for the ACKNACKs: a GAP or DATA that arrived beyond the window was dropped
            if (gone.get((int) sn))
            {
                f.gap(sn, sn + 1);
            }
            else
            {
                f.data(sn);
            }
        }
        assertThat(f.delivered).as("delivered order").isSorted().doesNotHaveDuplicates();
        final List<Long> missingOnes = new ArrayList<>(arrivals);
        missingOnes.removeAll(f.delivered);
        assertThat(missingOnes).as("never delivered, of %d changes with %s gone", changes, gone).isEmpty();
        assertThat(f.proxy.heldCount()).isZero();
        assertThat(f.proxy.ackBase()).isEqualTo(changes + 1L);
    }

    /** GAPs the next run of gone numbers from {@code from} on; returns where the next search starts. */
    private static long gapNext(final DataFeeder f, final BitSet gone, final long from, final int changes)
    {
        final int start = gone.nextSetBit((int) from);
        if (start < 0 || start > changes)
        {
            return changes + 1L;
        }
        final int end = Math.min(gone.nextClearBit(start), changes + 1);
        f.gap(start, end);
        return end;
    }
}
