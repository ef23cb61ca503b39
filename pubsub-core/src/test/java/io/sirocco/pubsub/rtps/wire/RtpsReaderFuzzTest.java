package io.sirocco.pubsub.rtps.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;

import org.junit.jupiter.api.Test;

/**
 * Malformed input never makes the reader throw, every rejection is counted exactly once, a valid datagram after any
 * amount of garbage still decodes, and reading allocates nothing per datagram.
 */
class RtpsReaderFuzzTest
{
    private static final int DATAGRAMS = 100_000;

    @Property(tries = 2000)
    void randomBytesNeverThrow(@ForAll @Size(max = 300) final byte[] bytes)
    {
        final RtpsMessageReader reader = new RtpsMessageReader();
        final int result = reader.read(ByteBuffer.wrap(bytes), 0, bytes.length, new RecordingHandler());
        assertThat(result == -1).isEqualTo(reader.lastMalformed() != null);
        assertThat(reader.stats().malformedTotal() + reader.stats().acceptedDatagrams()).isEqualTo(1);
    }

    @Property(tries = 2000)
    void randomBytesAfterAValidHeaderNeverThrow(@ForAll @Size(max = 300) final byte[] tail)
    {
        final byte[] valid = RtpsCodecTest.validDatagram();
        final byte[] datagram = new byte[20 + tail.length];
        System.arraycopy(valid, 0, datagram, 0, 20);
        System.arraycopy(tail, 0, datagram, 20, tail.length);
        final RtpsMessageReader reader = new RtpsMessageReader();
        reader.read(ByteBuffer.wrap(datagram), 0, datagram.length, new RecordingHandler());
        assertThat(reader.stats().malformedTotal() + reader.stats().acceptedDatagrams()).isEqualTo(1);
    }

    @Test
    void hundredThousandMutatedDatagramsAreCountedAndTrafficGoesOn()
    {
        final RtpsMessageReader reader = new RtpsMessageReader();
        final CountingHandler handler = new CountingHandler();
        final byte[][] seeds = seeds();
        final ByteBuffer buffer = ByteBuffer.allocate(2048);
        final SplittableRandom random = new SplittableRandom(21);
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        // warm up, then measure the allocation of the fuzz loop itself
        fuzz(reader, handler, seeds, buffer, random, 1000);
        final long before = threads.getCurrentThreadAllocatedBytes();
        final long rejected = fuzz(reader, handler, seeds, buffer, random, DATAGRAMS);
        final long allocated = threads.getCurrentThreadAllocatedBytes() - before;

        final RtpsDecodeStats stats = reader.stats();
        assertThat(stats.malformedTotal() + stats.acceptedDatagrams()).isEqualTo(DATAGRAMS + 1000);
        assertThat(rejected).as("mutations must produce rejections").isGreaterThan(DATAGRAMS / 10);
        assertThat(stats.acceptedDatagrams()).as("and some survivors").isGreaterThan(DATAGRAMS / 100);
        for (final MalformedReason reason : new MalformedReason[] {MalformedReason.TRUNCATED_SUBMESSAGE,
            MalformedReason.BAD_SUBMESSAGE_LENGTH, MalformedReason.BAD_KEY_HASH, MalformedReason.BAD_MAGIC})
        {
            assertThat(stats.malformed(reason)).as(reason.name()).isPositive();
        }
        assertThat(allocated).as("bytes allocated reading %d datagrams", DATAGRAMS).isLessThan(DATAGRAMS / 10);

        final byte[] valid = RtpsCodecTest.validDatagram();
        final long dataBefore = handler.data;
        assertThat(reader.read(ByteBuffer.wrap(valid), 0, valid.length, handler)).isEqualTo(1);
        assertThat(handler.data).isEqualTo(dataBefore + 1);
    }

    private static long fuzz(final RtpsMessageReader reader, final CountingHandler handler, final byte[][] seeds,
        final ByteBuffer buffer, final SplittableRandom random, final int count)
    {
        long rejected = 0;
        for (int i = 0; i < count; i++)
        {
            final byte[] seed = seeds[random.nextInt(seeds.length)];
            buffer.clear();
            buffer.put(0, seed);
            final int length = mutate(buffer, seed.length, random);
            if (reader.read(buffer, 0, length, handler) < 0)
            {
                rejected++;
            }
        }
        return rejected;
    }

    /** One of: truncate, corrupt a length field, flip bytes, change a submessage id, bad KeyHash length. */
    private static int mutate(final ByteBuffer b, final int length, final SplittableRandom random)
    {
        switch (random.nextInt(6))
        {
            case 0 -> {
                return random.nextInt(length + 1);
            }
            case 1 -> b.put(22 + 4 * random.nextInt(Math.max(1, (length - 22) / 4)), (byte) random.nextInt(256));
            case 2 -> {
                for (int k = random.nextInt(1, 8); k > 0; k--)
                {
                    b.put(random.nextInt(length), (byte) random.nextInt(256));
                }
            }
            case 3 -> b.put(20, (byte) random.nextInt(256));
            case 4 -> b.put(46, (byte) random.nextInt(32));
            default -> b.put(random.nextInt(Math.min(length, 24)), (byte) random.nextInt(256));
        }
        return length;
    }

    private static byte[][] seeds()
    {
        final ByteBuffer out = ByteBuffer.allocate(1024);
        final RtpsMessageWriter w = new RtpsMessageWriter(1, 2).begin(out);
        w.infoTimestamp(99);
        w.data(0x104, 0x103, 9, new byte[16], ParameterId.STATUS_UNREGISTERED, ByteBuffer.allocate(40), 0, 40, false);
        w.dataFrag(0x104, 0x103, 10, 1, 2, 16, 100, null, ByteBuffer.allocate(32), 0, 32);
        w.heartbeat(0x104, 0x103, 1, 10, 3, false, false);
        w.ackNack(0x104, 0x103, 4, 64, new int[] {-1, 7}, 5, true);
        w.gap(0x104, 0x103, 2, 5, 32, new int[] {0x0f0f0f0f});
        w.nackFrag(0x104, 0x103, 10, 2, 8, new int[] {0xff000000}, 6);
        final byte[] mixed = java.util.Arrays.copyOf(out.array(), w.length());
        return new byte[][] {RtpsCodecTest.validDatagram(), mixed};
    }

    /** Touches what a real handler touches, allocating nothing. */
    private static final class CountingHandler implements SubmessageHandler
    {
        long data;
        long touched;

        @Override
        public void onData(final ReceiveContext c, final DataView d)
        {
            data++;
            touched += d.payloadLength() + d.inlineQos().statusInfo();
        }

        @Override
        public void onDataFrag(final ReceiveContext c, final DataFragView f)
        {
            touched += f.fragmentBytes();
        }

        @Override
        public void onAckNack(final ReceiveContext c, final AckNackView a)
        {
            touched += a.set().contains(5) ? 1 : 0;
        }

        @Override
        public void onGap(final ReceiveContext c, final GapView g)
        {
            touched += g.covers(3) ? 1 : 0;
        }
    }
}
