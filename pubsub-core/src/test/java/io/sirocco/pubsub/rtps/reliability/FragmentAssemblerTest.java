package io.sirocco.pubsub.rtps.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import io.sirocco.pubsub.rtps.wire.DataFragView;
import io.sirocco.pubsub.rtps.wire.DataView;
import io.sirocco.pubsub.rtps.wire.ReceiveContext;
import io.sirocco.pubsub.rtps.wire.RtpsMessageReader;
import io.sirocco.pubsub.rtps.wire.RtpsMessageWriter;
import io.sirocco.pubsub.rtps.wire.SubmessageHandler;

/**
 * DATA_FRAG reassembly through the real codec: fragments out of order, duplicated or missing make each sample whole
 * exactly once, in sequence order, with its own bytes and KeyHash; the missing fragments are what a NACK_FRAG asks
 * for; memory stays within its bound whatever the fragment numbers and sizes claim.
 */
class FragmentAssemblerTest
{
    private static final int WRITER = 0x0000_0102;
    private static final int FRAGMENT = 1000;

    private final RtpsMessageReader reader = new RtpsMessageReader();
    private final RtpsMessageWriter writer = new RtpsMessageWriter(0x0102_0304_0506_0708L, 0x090a0b0c);
    private final ByteBuffer datagram = ByteBuffer.allocate(4096);

    @Test
    void outOfOrderDuplicatedAndMissingFragmentsMakeEachSampleOnceInOrder()
    {
        final List<long[]> delivered = new ArrayList<>();
        final List<byte[]> bytes = new ArrayList<>();
        final WriterProxy proxy = new WriterProxy((context, data) ->
        {
            delivered.add(new long[] {data.sequenceNumber(), context.timestamp()});
            final byte[] copy = new byte[data.payloadLength()];
            data.buffer().get(data.payloadOffset(), copy);
            bytes.add(copy);
        });
        final byte[][] samples = {sample(1, 9_500), sample(2, 10_000), sample(3, 1_001)};
        final List<int[]> fragments = new ArrayList<>(); // {sn, fragment number}
        for (int s = 0; s < samples.length; s++)
        {
            for (int f = 1; f <= (samples[s].length + FRAGMENT - 1) / FRAGMENT; f++)
            {
                fragments.add(new int[] {s + 1, f});
                if (f % 3 == 0)
                {
                    fragments.add(new int[] {s + 1, f}); // a duplicate
                }
            }
        }
        Collections.shuffle(fragments, new Random(21));
        final int[] withheld = {1, 7};
        for (final int[] f : fragments)
        {
            if (!(f[0] == withheld[0] && f[1] == withheld[1]))
            {
                feed(proxy, f[0], f[1], samples[f[0] - 1]);
            }
        }
        assertThat(delivered).as("sample 1 misses fragment 7: nothing may go before it").isEmpty();
        assertThat(proxy.heldCount()).as("samples 2 and 3 are whole and held").isEqualTo(2);
        assertThat(proxy.nextPartial(1)).isEqualTo(1);
        final int[] bitmap = new int[8];
        assertThat(proxy.missingFragments(1, bitmap)).as("bits in the NACK_FRAG").isOne();
        assertThat(proxy.missingFragmentBase(1)).isEqualTo(7);
        assertThat(bitmap[0]).isEqualTo(0x8000_0000);
        assertThat(proxy.missing(bitmap)).as("the ACKNACK covers 1..3").isEqualTo(3);
        assertThat(bitmap[0]).as("a partial sample is asked for by NACK_FRAG, not by ACKNACK").isZero();

        feed(proxy, 1, 7, samples[0]);
        feed(proxy, 2, 4, samples[1]); // a late duplicate of a delivered sample
        assertThat(delivered).extracting(d -> d[0]).containsExactly(1L, 2L, 3L);
        for (int s = 0; s < samples.length; s++)
        {
            assertThat(bytes.get(s)).as("bytes of sample %d", s + 1).isEqualTo(samples[s]);
        }
        assertThat(delivered.get(0)[1]).as("the INFO_TS of the sample's fragments").isEqualTo(1000L + 1);
        assertThat(proxy.nextPartial(1)).as("nothing left in reassembly").isEqualTo(-1);
    }

    @Test
    void reassembledSampleKeepsItsKeyHash()
    {
        final FragmentAssembler assembler = new FragmentAssembler(4, 1 << 20);
        final byte[] sample = sample(5, 2_500);
        final DataView[] whole = new DataView[1];
        for (int f = 3; f >= 1; f--)
        {
            send(5, f, sample, (c, frag) -> whole[0] = assembler.onFragment(c, frag));
        }
        assertThat(whole[0]).isNotNull();
        final byte[] keyHash = new byte[16];
        assertThat(whole[0].inlineQos().keyHash(keyHash, 0)).isTrue();
        assertThat(keyHash).isEqualTo(keyHash(5));
        assertThat(whole[0].sequenceNumber()).isEqualTo(5);
        assertThat(whole[0].writerId()).isEqualTo(WRITER);
        assertThat(whole[0].hasData()).isTrue();
    }

    @Test
    void gapAndHeartbeatDropIncompleteSamples()
    {
        final List<Long> delivered = new ArrayList<>();
        final WriterProxy proxy = new WriterProxy((context, data) -> delivered.add(data.sequenceNumber()));
        feed(proxy, 1, 1, sample(1, 3_000));
        feed(proxy, 2, 2, sample(2, 3_000));
        assertThat(proxy.nextPartial(1)).isEqualTo(1);
        proxy.onHeartbeat(2, 2, 1); // the writer no longer has 1
        assertThat(proxy.nextPartial(1)).as("sample 1 is irrelevant now").isEqualTo(2);
        proxy.onHeartbeat(3, 3, 2);
        assertThat(proxy.nextPartial(1)).as("and sample 2").isEqualTo(-1);
        assertThat(delivered).isEmpty();
    }

    @Test
    void moreSamplesInProgressThanSlotsEvictTheLeastRecentWithinTheBound()
    {
        final FragmentAssembler assembler = new FragmentAssembler(4, 64 * 1024);
        for (int sn = 1; sn <= 10; sn++)
        {
            send(sn, 1, sample(sn, 9_000), assembler::onFragment);
            assertThat(assembler.inProgress()).isLessThanOrEqualTo(4);
            assertThat(assembler.bufferedBytes()).isLessThanOrEqualTo(64 * 1024);
        }
        assertThat(assembler.isInProgress(10)).isTrue();
        assertThat(assembler.isInProgress(6)).as("least recent evicted").isFalse();
        final byte[] tooLarge = sample(11, 70_000);
        send(11, 1, tooLarge, assembler::onFragment);
        assertThat(assembler.isInProgress(11)).as("a sample above the bound is not taken").isFalse();
        assertThat(assembler.rejected()).isOne();
    }

    @Test
    void fragmentsDisagreeingWithTheirSampleAreIgnored()
    {
        final FragmentAssembler assembler = new FragmentAssembler(4, 1 << 20);
        final byte[] sample = sample(1, 3_000);
        send(1, 1, sample, assembler::onFragment);
        final byte[] other = sample(1, 5_000); // same sn, another sample size
        final DataView[] whole = new DataView[1];
        send(1, 2, other, (c, f) -> whole[0] = assembler.onFragment(c, f));
        send(1, 3, other, (c, f) -> whole[0] = assembler.onFragment(c, f));
        assertThat(whole[0]).isNull();
        assertThat(assembler.rejected()).isEqualTo(2);
        send(1, 2, sample, assembler::onFragment);
        send(1, 3, sample, (c, f) -> whole[0] = assembler.onFragment(c, f));
        assertThat(whole[0]).as("the sample completes from its own fragments").isNotNull();
    }

    /**
     * 10^5 DATA_FRAG datagrams with random fragment numbers, sizes and sample sizes (the codec rejects what does not
     * fit the sample; the rest reaches the assembler): nothing throws, memory and slots stay bounded, and a valid
     * sample still reassembles after.
     */
    @Test
    void hundredThousandMalformedFragmentsKeepMemoryBounded()
    {
        final long bound = 256 * 1024;
        final FragmentAssembler assembler = new FragmentAssembler(8, bound);
        final SplittableRandom random = new SplittableRandom(21);
        final ByteBuffer payload = ByteBuffer.allocate(2048);
        long maxBuffered = 0;
        int maxInProgress = 0;
        final long[] calls = {0};
        final SubmessageHandler handler = new SubmessageHandler()
        {
            @Override
            public void onDataFrag(final ReceiveContext context, final DataFragView fragment)
            {
                calls[0]++;
                assembler.onFragment(context, fragment);
            }
        };
        for (int i = 0; i < 100_000; i++)
        {
            final int fragmentSize = 1 + random.nextInt(random.nextBoolean() ? 8 : 1500);
            final int sampleSize = random.nextInt(4) == 0 ? random.nextInt() : random.nextInt(1, 300_000);
            final int start = random.nextInt(4) == 0 ? random.nextInt() : 1 + random.nextInt(400);
            final int count = 1 + random.nextInt(3);
            writer.begin(datagram);
            writer.dataFrag(0, WRITER, 1 + random.nextInt(40), start, count, fragmentSize, sampleSize, null, payload,
                0, Math.min(payload.capacity(), count * fragmentSize));
            final int length = writer.length();
            if (length > 20 && random.nextInt(3) == 0)
            {
                datagram.put(20 + random.nextInt(length - 20), (byte) random.nextInt(256)); // one byte flipped
            }
            reader.read(datagram, 0, length, handler);
            maxBuffered = Math.max(maxBuffered, assembler.bufferedBytes());
            maxInProgress = Math.max(maxInProgress, assembler.inProgress());
        }
        assertThat(maxBuffered).as("most bytes buffered at once").isLessThanOrEqualTo(bound);
        assertThat(maxInProgress).as("most samples in progress at once").isLessThanOrEqualTo(8);
        final long reached = calls[0];
        assertThat(reached).as("fragments the codec let through to the assembler").isGreaterThan(10_000);
        assertThat(assembler.rejected()).as("fragments the assembler refused").isPositive();

        assembler.dropBelow(Long.MAX_VALUE);
        final byte[] sample = sample(99, 2_000);
        final DataView[] whole = new DataView[1];
        send(99, 2, sample, assembler::onFragment);
        send(99, 1, sample, (c, f) -> whole[0] = assembler.onFragment(c, f));
        assertThat(whole[0]).isNotNull();
        final byte[] copy = new byte[whole[0].payloadLength()];
        whole[0].buffer().get(whole[0].payloadOffset(), copy);
        assertThat(copy).isEqualTo(sample);
    }

    private void feed(final WriterProxy proxy, final long sn, final int fragment, final byte[] sample)
    {
        send(sn, fragment, sample, proxy::onDataFrag);
    }

    /** Encodes fragment {@code fragment} of {@code sample} with INFO_TS 1000 + sn and hands it to {@code to}. */
    private void send(final long sn, final int fragment, final byte[] sample, final FragmentSink to)
    {
        final int offset = (fragment - 1) * FRAGMENT;
        writer.begin(datagram);
        writer.infoTimestamp(1000L + sn);
        writer.dataFrag(0, WRITER, sn, fragment, 1, FRAGMENT, sample.length, fragment == 1 ? keyHash(sn) : null,
            ByteBuffer.wrap(sample), offset, Math.min(FRAGMENT, sample.length - offset));
        final int result = reader.read(datagram, 0, writer.length(), new SubmessageHandler()
        {
            @Override
            public void onDataFrag(final ReceiveContext context, final DataFragView f)
            {
                to.accept(context, f);
            }
        });
        assertThat(result).as("the encoded fragment is valid").isPositive();
    }

    /** A serialized sample: a CDR_LE encapsulation header, then bytes that depend on {@code sn} and position. */
    private static byte[] sample(final long sn, final int length)
    {
        final byte[] b = new byte[length];
        b[1] = 1;
        for (int i = 4; i < length; i++)
        {
            b[i] = (byte) (i * 31 + sn * 7);
        }
        return b;
    }

    private static byte[] keyHash(final long sn)
    {
        final byte[] k = new byte[16];
        k[15] = (byte) sn;
        return k;
    }

    @FunctionalInterface
    private interface FragmentSink
    {
        void accept(ReceiveContext context, DataFragView fragment);
    }
}
