package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import hello.HelloMsg;
import io.sirocco.tests.FreePorts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.PolicyFactory;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.domain.DomainParticipantFactory;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.pub.Publisher;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.Sample;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.topic.Topic;

/**
 * Issue 23: the tcp messaging port of a DDS participant, fuzzed while a reliable pub/sub pair on the same node keeps
 * flowing. The reader's participant listens for tcp row frames on a known port; connections to it carry a hello and
 * then malformed frames (random bytes, truncated frames, length fields of 0, negative and 2 GB, valid headers with
 * garbage bodies for made-up views), or garbage instead of a hello, or nothing at all. Meanwhile a writer on another
 * participant sends HelloMsg samples to the reader. Every sample arrives, in order, none lost; heap, threads and file
 * descriptors measured before and after stay within generous bounds; the idle connections are closed by the node.
 * {@code -Dsirocco.fuzz.frames=100000} runs the full 10^5 frames (default 3,000: seconds).
 */
@Timeout(1800)
class TcpPortFuzzTest
{
    private static final int FRAMES = Integer.getInteger("sirocco.fuzz.frames", 3_000);
    private static final int ROW_TYPE = 40;
    private static final int ROW_SUBTYPE = 1;

    private final List<DomainParticipant> participants = new ArrayList<>();
    private final List<Socket> idle = new ArrayList<>();

    @AfterEach
    void close() throws IOException
    {
        for (final Socket socket : idle)
        {
            socket.close();
        }
        participants.forEach(DomainParticipant::close);
    }

    private DomainParticipant participant(final int domain, final int tcpPort)
    {
        final ServiceEnvironment env = Dds.environment(Map.of("sirocco.dds.transport", "tcp",
            "sirocco.dds.interface", "lo", "sirocco.dds.tcp.port", tcpPort));
        final DomainParticipant p = DomainParticipantFactory.getInstance(env).createParticipant(domain);
        participants.add(p);
        return p;
    }

    @Test
    void shouldKeepAReliablePairFlowingWhileTheTcpPortIsFuzzed() throws Exception
    {
        final int domain = Dds.newDomain();
        final int readerPort = FreePorts.next();
        final DomainParticipant pub = participant(domain, FreePorts.next());
        final DomainParticipant sub = participant(domain, readerPort);
        final PolicyFactory pf = Dds.policies();
        final Publisher publisher = pub.createPublisher();
        final DataWriter<HelloMsg> writer = publisher.createDataWriter(pub.createTopic("Fuzzed", HelloMsg.class),
            publisher.getDefaultDataWriterQos().withPolicies(
                pf.Reliability().withReliable().withMaxBlockingTime(60, TimeUnit.SECONDS), pf.History().withKeepAll()));
        final Subscriber subscriber = sub.createSubscriber();
        final DataReader<HelloMsg> reader = subscriber.createDataReader(sub.createTopic("Fuzzed", HelloMsg.class),
            subscriber.getDefaultDataReaderQos().withPolicies(pf.Reliability().withReliable(),
                pf.History().withKeepAll()));
        Dds.await("matched", () -> writer.getPublicationMatchedStatus().getCurrentCount() == 1);
        final Footprint before = Footprint.now();

        final AtomicBoolean fuzzing = new AtomicBoolean(true);
        final AtomicLong written = new AtomicLong();
        final AtomicReference<Throwable> writeFailure = new AtomicReference<>();
        final Thread writing = Thread.ofPlatform().name("fuzz-writer").start(() ->
        {
            try
            {
                for (int i = 0; fuzzing.get(); i++)
                {
                    writer.write(new HelloMsg(i, "sample " + i));
                    written.incrementAndGet();
                    Thread.sleep(1); // a steady stream, not a flood: the test is about the fuzz
                }
            }
            catch (final Throwable t)
            {
                writeFailure.set(t);
            }
        });
        final long[] sent = fuzz(new InetSocketAddress("127.0.0.1", readerPort), new Random(23));
        fuzzing.set(false);
        writing.join(120_000);
        assertThat(writeFailure.get()).as("the writer during the fuzz").isNull();
        writer.waitForAcknowledgments(120, TimeUnit.SECONDS);

        final List<Integer> got = new ArrayList<>();
        Dds.await(written.get() + " samples taken", () ->
        {
            for (final Sample<HelloMsg> s : reader.take(new ArrayList<>()))
            {
                if (s.getData() != null)
                {
                    got.add(s.getData().id);
                }
            }
            return got.size() >= written.get();
        });
        for (int i = 0; i < got.size(); i++)
        {
            assertThat(got.get(i)).as("sample %d in order, none lost or repeated", i).isEqualTo(i);
        }
        assertThat(got).hasSize((int)written.get());
        assertThat(reader.getSampleLostStatus().getTotalCount()).isZero();
        for (final Socket socket : idle)
        {
            assertThat(closedByPeer(socket.getInputStream())).as("an idle connection closed by the node").isTrue();
        }
        final Footprint after = Footprint.now();
        System.out.printf("FUZZ frames=%d connections=%d samples=%d lost=0 heapMB=%d->%d threads=%d->%d fds=%d->%d%n",
            sent[0], sent[1], written.get(), before.heapMb, after.heapMb, before.threads, after.threads, before.fds,
            after.fds);
        assertThat(after.heapMb).as("heap MB after the fuzz").isLessThan(before.heapMb + 256);
        assertThat(after.threads).as("threads after the fuzz").isLessThanOrEqualTo(before.threads + 8);
        assertThat(after.fds).as("open files after the fuzz").isLessThanOrEqualTo(before.fds + 32);
    }

    /** Throws at least {@link #FRAMES} malformed frames at the port; returns {frames, connections}. */
    private long[] fuzz(final InetSocketAddress target, final Random random) throws IOException
    {
        long frames = 0;
        long connections = 0;
        while (frames < FRAMES)
        {
            final int kind = random.nextInt(8);
            if (kind == 7 && idle.size() < 16)
            {
                final Socket socket = new Socket();
                socket.connect(target, 30_000);
                socket.setSoTimeout(60_000);
                idle.add(socket); // never sends: the node's hello deadline closes it
                connections++;
                continue;
            }
            final ByteBuffer out = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
            if (kind != 6)
            {
                // a hello for a node id no member has (30000-39999), any incarnation
                out.putInt(0x53495243).putShort((short)(30_000 + random.nextInt(10_000))).putShort((short)0)
                    .putLong(random.nextLong()).putLong(0);
            }
            final int count = 1 + random.nextInt(40);
            for (int i = 0; i < count; i++)
            {
                malformedFrame(out, random, kind);
            }
            frames += count;
            connections++;
            out.flip();
            try (Socket socket = new Socket())
            {
                socket.connect(target, 30_000);
                socket.setSoTimeout(60_000);
                try
                {
                    socket.getOutputStream().write(out.array(), 0, out.limit());
                    socket.shutdownOutput(); // a truncated frame ends here
                }
                catch (final SocketException closedEarly)
                {
                    // the node closed on an earlier frame of this batch
                }
                assertThat(closedByPeer(socket.getInputStream())).as("the node closed a garbage connection").isTrue();
            }
        }
        return new long[] {frames, connections};
    }

    /** One malformed frame of {@code kind} (0-6); the 12-byte header is magic, flags, type, subtype, id, length. */
    private static void malformedFrame(final ByteBuffer out, final Random random, final int kind)
    {
        if (out.remaining() < 2_048)
        {
            return;
        }
        switch (kind)
        {
            case 0, 6 -> random.ints(1 + random.nextInt(200)).forEach(b -> out.put((byte)b)); // random bytes
            case 1 -> out.put((byte)0x5C).put((byte)0).put((byte)ROW_TYPE).put((byte)ROW_SUBTYPE).putInt(0)
                .putInt(100 + random.nextInt(1_000)).put(new byte[random.nextInt(50)]); // truncated
            case 2 -> out.put((byte)0x5C).put((byte)0).put((byte)(1 + random.nextInt(200))).put((byte)0).putInt(0)
                .putInt(0); // length 0, unknown type
            case 3 -> out.put((byte)0x5C).put((byte)0).put((byte)ROW_TYPE).put((byte)ROW_SUBTYPE).putInt(0)
                .putInt(-1 - random.nextInt(1 << 30)); // negative length
            case 4 -> out.put((byte)0x5C).put((byte)0).put((byte)ROW_TYPE).put((byte)ROW_SUBTYPE).putInt(0)
                .putInt(Integer.MAX_VALUE); // 2 GB
            default ->
            {
                // a valid row-frame header with a garbage body for a made-up view
                final int length = 12 + random.nextInt(500);
                out.put((byte)0x5C).put((byte)0x10).put((byte)ROW_TYPE).put((byte)ROW_SUBTYPE).putInt(0)
                    .putInt(length).putLong(1_000_000L + random.nextInt(1 << 30)).putInt(random.nextInt(64));
                for (int i = 12; i < length; i++)
                {
                    out.put((byte)random.nextInt(256));
                }
            }
        }
    }

    /** Reads until the node closes the socket (the socket's 60 s read timeout fails the test). */
    private static boolean closedByPeer(final InputStream in) throws IOException
    {
        try
        {
            while (in.read() >= 0)
            {
                // a handshake reply, if any
            }
            return true;
        }
        catch (final SocketException reset)
        {
            return true;
        }
    }

    /** Heap in use after a GC, live threads and open file descriptors of this JVM. */
    private record Footprint(long heapMb, int threads, long fds)
    {
        static Footprint now() throws IOException
        {
            System.gc();
            final Runtime runtime = Runtime.getRuntime();
            final long heapMb = (runtime.totalMemory() - runtime.freeMemory()) >> 20;
            final int threads = ManagementFactory.getThreadMXBean().getThreadCount();
            try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd")))
            {
                return new Footprint(heapMb, threads, fds.count());
            }
        }
    }
}
