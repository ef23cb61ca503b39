package io.sirocco.pubsub.rtps.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.BitSet;
import java.util.SplittableRandom;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

import io.sirocco.pubsub.rtps.wire.AckNackView;
import io.sirocco.pubsub.rtps.wire.GapView;
import io.sirocco.pubsub.rtps.wire.ReceiveContext;
import io.sirocco.pubsub.rtps.wire.RtpsMessageReader;
import io.sirocco.pubsub.rtps.wire.RtpsMessageWriter;
import io.sirocco.pubsub.rtps.wire.SubmessageHandler;

/**
 * HEARTBEAT/ACKNACK/GAP reliability over a channel that loses, duplicates and reorders: with a writer that answers
 * every ACKNACK with the requested changes (or a GAP for the ones it no longer has), the reader ends with every
 * change exactly once, in sequence order, or declared irrelevant, in a bounded number of rounds, and the writer sees it all acknowledged.
 * ACKNACK and GAP travel through the real codec.
 */
class ReliabilityProperties
{
    private final RtpsMessageReader reader = new RtpsMessageReader();
    private final ByteBuffer wire = ByteBuffer.allocate(1024);
    private final RtpsMessageWriter writer = new RtpsMessageWriter(1, 2);

    @Property(tries = 200)
    void everyChangeArrivesOnceOrIsGapped(@ForAll @IntRange(min = 1, max = 3000) final int changes,
        @ForAll @IntRange(min = 0, max = 60) final int lossPercent, @ForAll final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final BitSet gone = new BitSet();   // changes the writer no longer has: answered by GAP
        for (int sn = 1; sn <= changes; sn++)
        {
            if (random.nextInt(100) < 3)
            {
                gone.set(sn);
            }
        }
        final DataFeeder feeder = new DataFeeder();
        final WriterProxy atReader = feeder.proxy;
        final ReaderProxy atWriter = new ReaderProxy();
        for (int sn = 1; sn <= changes; sn++)
        {
            final int order = random.nextInt(100) < 10 ? Math.max(1, sn - random.nextInt(20)) : sn; // some reordering
            if (!gone.get(order) && random.nextInt(100) >= lossPercent)
            {
                feeder.data(order);
            }
        }
        int heartbeatCount = 0;
        int rounds = 0;
        while (!atReader.isComplete() || atWriter.acknowledgedBelow() <= changes)
        {
            assertThat(++rounds).as("rounds to complete %d changes at %d%% loss", changes, lossPercent)
                .isLessThan(100_000);
            if (random.nextInt(100) >= lossPercent)
            {
                atReader.onHeartbeat(1, changes, ++heartbeatCount);
            }
            final int[] bitmap = new int[8];
            final int numBits = atReader.missing(bitmap);
            final int count = atReader.nextAckNackCount();
            if (random.nextInt(100) < lossPercent)
            {
                continue; // the ACKNACK was lost
            }
            send(w -> w.ackNack(0x104, 0x103, atReader.ackBase(), numBits, bitmap, count, false), new SubmessageHandler()
            {
                @Override
                public void onAckNack(final ReceiveContext c, final AckNackView a)
                {
                    atWriter.onAckNack(a.set(), a.count());
                }
            });
            for (long sn = atWriter.nextRequested(0); sn > 0; sn = atWriter.nextRequested(sn + 1))
            {
                if (random.nextInt(100) < lossPercent)
                {
                    continue;
                }
                if (gone.get((int) sn))
                {
                    final long gapped = sn;
                    send(w -> w.gap(0x104, 0x103, gapped, gapped + 1, 0, new int[0]), new SubmessageHandler()
                    {
                        @Override
                        public void onGap(final ReceiveContext c, final GapView g)
                        {
                            atReader.onGap(g);
                        }
                    });
                }
                else
                {
                    feeder.data(sn);
                }
            }
            atWriter.requestsServed();
        }
        final BitSet expected = new BitSet();
        expected.set(1, changes + 1);
        expected.andNot(gone);
        assertThat(feeder.delivered).as("delivered in order, once each").isSorted().doesNotHaveDuplicates();
        final BitSet delivered = new BitSet();
        feeder.delivered.forEach(sn -> delivered.set(sn.intValue()));
        assertThat(delivered).isEqualTo(expected);
        assertThat(atReader.ackBase()).isEqualTo(changes + 1L);
    }

    private void send(final java.util.function.Predicate<RtpsMessageWriter> encode, final SubmessageHandler handler)
    {
        writer.begin(wire);
        assertThat(encode.test(writer)).isTrue();
        assertThat(reader.read(wire, 0, writer.length(), handler)).isEqualTo(1);
    }
}
