package io.sirocco.tests.rtps;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.sirocco.pubsub.rtps.RtpsOptions;
import io.sirocco.pubsub.rtps.RtpsParticipant;
import io.sirocco.pubsub.rtps.discovery.EntityIds;
import io.sirocco.pubsub.rtps.wire.RtpsMessageWriter;
import io.sirocco.tests.Closer;

/**
 * 10^5 malformed RTPS datagrams (truncated, wrong lengths, unknown submessages, bad KeyHash, garbage SPDP data) sent
 * over UDP loopback at a running participant: nothing throws, the drops are counted, the heap stays bounded, and
 * discovery goes on: a participant started after the flood is still found.
 */
@Timeout(300)
class RtpsParticipantFuzzTest
{
    private static final int DATAGRAMS = 100_000;
    private static final long WAIT_NS = TimeUnit.SECONDS.toNanos(90);

    @RegisterExtension
    final Closer closer = new Closer();

    @Test
    void malformedFloodNeitherCrashesNorStopsDiscovery() throws Exception
    {
        final int domain = Ddsperf.randomDomain();
        final RtpsParticipant target = closer.add(RtpsParticipant.start(RtpsOptions.defaults(domain)
            .withInterface("lo")));
        final RtpsParticipant first = closer.add(RtpsParticipant.start(RtpsOptions.defaults(domain)
            .withInterface("lo")));
        awaitFound(target, first);
        final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        System.gc();
        final long heapBefore = memory.getHeapMemoryUsage().getUsed();

        final long receivedBefore = target.datagramsReceived();
        flood(target.metatrafficAddress());
        final long received = target.datagramsReceived() - receivedBefore;
        assertThat(received).as("datagrams that reached the participant").isPositive();

        assertThat(target.handlerFailures()).as("no datagram made the receive path throw").isZero();
        assertThat(target.decodeStats().malformedTotal()).as("drops are counted").isPositive();
        System.gc();
        final long heapGrowth = memory.getHeapMemoryUsage().getUsed() - heapBefore;
        assertThat(heapGrowth).as("heap growth after %d datagrams", received).isLessThan(64L << 20);
        final RtpsParticipant late = closer.add(RtpsParticipant.start(RtpsOptions.defaults(domain)
            .withInterface("lo")));
        awaitFound(target, late);
        assertThat(target.participants()).extracting(p -> p.prefix()).contains(first.prefix());
    }

    /** Sends the datagrams (loopback UDP may drop some when the receive buffer is full). */
    private static void flood(final InetSocketAddress target) throws Exception
    {
        final SplittableRandom random = new SplittableRandom(2021);
        final ByteBuffer valid = validSpdpLike();
        final ByteBuffer datagram = ByteBuffer.allocate(valid.limit() + 64);
        try (DatagramChannel channel = DatagramChannel.open())
        {
            for (int i = 0; i < DATAGRAMS; i++)
            {
                datagram.clear();
                datagram.put(valid.duplicate());
                final int length = mutate(datagram, valid.limit(), random);
                datagram.position(0).limit(length);
                channel.send(datagram, target);
                if ((i & 255) == 0)
                {
                    Thread.yield(); // give the receive agent the core now and then, so most datagrams get there
                }
            }
        }
    }

    private static int mutate(final ByteBuffer b, final int length, final SplittableRandom random)
    {
        switch (random.nextInt(6))
        {
            case 0 -> {
                return random.nextInt(length + 1); // truncated
            }
            case 1 -> b.putShort(22, (short) random.nextInt(1 << 16)); // wrong submessage length
            case 2 -> b.put(20, (byte) random.nextInt(0x20, 0x100)); // unknown or vendor submessage id
            case 3 -> b.put(20 + 4 + 20 + 2, (byte) random.nextInt(32)); // KeyHash length
            case 4 -> b.put(random.nextInt(64, length), (byte) random.nextInt(256)); // garbage in the SPDP data
            default -> {
                for (int k = random.nextInt(1, 6); k > 0; k--)
                {
                    b.put(random.nextInt(length), (byte) random.nextInt(256));
                }
            }
        }
        return length;
    }

    /** A DATA from the SPDP writer with a KeyHash and a parameter-list payload of a made-up participant. */
    private static ByteBuffer validSpdpLike()
    {
        final ByteBuffer payload = ByteBuffer.allocate(64);
        payload.put(new byte[] {0, 3, 0, 0});
        payload.put(new byte[] {0x50, 0, 16, 0}).put(new byte[16]); // PARTICIPANT_GUID (LE pid 0x0050, length 16)
        payload.put(new byte[] {0x2c, 0, 8, 0, 4, 0, 0, 0, 'f', 'u', 'z', 'z'}); // USER_DATA
        payload.put(new byte[] {1, 0, 0, 0}); // sentinel
        final ByteBuffer out = ByteBuffer.allocate(512);
        final RtpsMessageWriter w = new RtpsMessageWriter(0x0102030405060708L, 0x0a0b0c0d).begin(out);
        w.data(EntityIds.SPDP_READER, EntityIds.SPDP_WRITER, 1, new byte[16], 0, payload, 0, payload.position(),
            false);
        return out.limit(w.length());
    }

    private static void awaitFound(final RtpsParticipant finder, final RtpsParticipant found)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + WAIT_NS;
        while (finder.participants().stream().noneMatch(p -> p.prefix().equals(found.prefix())))
        {
            assertThat(System.nanoTime() - deadline).as("participant %s found within 90 s", found.prefix())
                .isNegative();
            TimeUnit.MILLISECONDS.sleep(20); // the table has no blocking wait; poll it
        }
    }
}
