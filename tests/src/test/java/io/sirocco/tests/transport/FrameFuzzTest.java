package io.sirocco.tests.transport;

import io.sirocco.transport.MalformedPayloadException;
import io.sirocco.transport.MessagingService;
import io.sirocco.transport.NodeAddressMap;
import io.sirocco.transport.TransportContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Throws more than 10,000 mutated frames at a live node over TCP (bit flips in payloads and headers, bad magic,
 * bad flags, bad lengths, unknown types, truncated frames, random bytes, broken handshakes) while a second peer keeps
 * doing request/response with it. Every garbage connection is closed by the node, and the good peer's traffic goes
 * on with no loss.
 */
@Timeout(300)
class FrameFuzzTest
{
    private static final int TARGET_FRAMES = 10_000;
    private MessagingService victim;
    private MessagingService peer;

    @AfterEach
    void close()
    {
        if (peer != null)
        {
            peer.close();
        }
        if (victim != null)
        {
            victim.close();
        }
    }

    @Test
    void shouldCloseGarbageConnectionsWhileGoodTrafficFlows() throws Exception
    {
        final NodeAddressMap addresses = new NodeAddressMap().put(1, "127.0.0.1", 0).put(2, "127.0.0.1", 0);
        victim = MessagingService.start(new TransportContext().ownNodeId(1).transport("nio").addressMap(addresses));
        peer = MessagingService.start(new TransportContext().ownNodeId(2).transport("nio").addressMap(addresses));
        EchoMessages.register(victim);
        EchoMessages.register(peer);
        final AtomicLong fuzzAccepted = new AtomicLong();
        victim.registerRawHandler(EchoMessages.TYPE, EchoMessages.FUZZ, frame ->
        {
            final int length = frame.importer().readCompactInt();
            if (length != frame.importer().remaining())
            {
                throw MalformedPayloadException.INSTANCE;
            }
            frame.importer().readBytes(new byte[length], 0, length);
            fuzzAccepted.incrementAndGet();
        });

        final AtomicBoolean fuzzing = new AtomicBoolean(true);
        final AtomicLong exchanged = new AtomicLong();
        final AtomicReference<Throwable> goodTrafficFailure = new AtomicReference<>();
        final Thread good = Thread.ofPlatform().name("good-peer").start(() ->
        {
            long value = 0;
            try
            {
                while (fuzzing.get())
                {
                    final EchoMessages.EchoReply reply = peer.requestSync(new EchoMessages.Echo().value(value), 1, 30, TimeUnit.SECONDS);
                    if (reply.value != value + 1)
                    {
                        throw new AssertionError("reply " + reply.value + " to " + value);
                    }
                    value++;
                    exchanged.incrementAndGet();
                }
            }
            catch (final Throwable t)
            {
                goodTrafficFailure.set(t);
            }
        });

        final InetSocketAddress target = addresses.address(1);
        final Random random = new Random(20261122);
        long framesThrown = 0;
        long garbageConnections = 0;
        long badHandshakes = 0;
        int fakeNode = 1000;
        while (framesThrown < TARGET_FRAMES)
        {
            final boolean badHello = random.nextInt(25) == 0;
            final ByteBuffer out = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
            // the handshake hello (HandshakeDescriptor): magic, node id, listening port, incarnation, generation
            out.putInt(badHello ? 0x53495243 ^ (1 << random.nextInt(32)) : 0x53495243).putShort((short)fakeNode++)
                .putShort((short)0).putLong(random.nextLong()).putLong(0);
            if (fakeNode > 60_000)
            {
                fakeNode = 1000;
            }
            int frames = 0;
            final int goodish = random.nextInt(20);
            for (int i = 0; i < goodish; i++)
            {
                putFuzzFrame(out, random, random.nextInt(4) == 0);
                frames++;
            }
            final boolean truncated = putFatalFrame(out, random);
            frames++;
            out.flip();
            try (Socket socket = new Socket())
            {
                socket.connect(target, 30_000);
                socket.setSoTimeout(30_000);
                try
                {
                    socket.getOutputStream().write(out.array(), 0, out.limit());
                    if (truncated)
                    {
                        socket.shutdownOutput();
                    }
                }
                catch (final SocketException closedEarly)
                {
                    // the node already closed on an earlier mutated frame of this batch
                }
                assertThat(closedByPeer(socket.getInputStream())).as("node closed the garbage connection").isTrue();
            }
            if (badHello)
            {
                badHandshakes++;
            }
            else
            {
                framesThrown += frames;
                garbageConnections++;
            }
        }
        fuzzing.set(false);
        good.join(TimeUnit.SECONDS.toMillis(60));

        assertThat(goodTrafficFailure.get()).isNull();
        assertThat(exchanged.get()).isPositive();
        assertThat(framesThrown).isGreaterThanOrEqualTo(TARGET_FRAMES);
        assertThat(badHandshakes).isPositive();
        // every garbage connection was closed for bad input, exactly once each
        assertThat(victim.statistics().protocolErrors()).isEqualTo(garbageConnections);
        assertThat(fuzzAccepted.get()).isPositive();
        // and the good peer's connection was never among them
        final EchoMessages.EchoReply last = peer.requestSync(new EchoMessages.Echo().value(1), 1, 30, TimeUnit.SECONDS);
        assertThat(last.value).isEqualTo(2);
        assertThat(peer.statistics().connectionsClosed()).isZero();
    }

    /** A well-formed fuzz frame, its payload bytes optionally flipped (which may or may not break it). */
    private static void putFuzzFrame(final ByteBuffer out, final Random random, final boolean mutate)
    {
        final int length = random.nextInt(200);
        final int start = out.position();
        final int payload = (length < 128 ? 1 : 2) + length;
        out.put((byte)0x5C).put((byte)0).put((byte)EchoMessages.TYPE).put((byte)EchoMessages.FUZZ).putInt(0).putInt(payload);
        if (length < 128)
        {
            out.put((byte)length);
        }
        else
        {
            out.put((byte)((length & 0x7F) | 0x80)).put((byte)(length >>> 7));
        }
        for (int i = 0; i < length; i++)
        {
            out.put((byte)random.nextInt());
        }
        if (mutate)
        {
            final int at = start + 12 + random.nextInt(payload);
            out.put(at, (byte)(out.get(at) ^ (1 << random.nextInt(8))));
        }
    }

    /** A frame the node must reject; returns true if it is a truncated frame (the sender then ends the stream). */
    private static boolean putFatalFrame(final ByteBuffer out, final Random random)
    {
        switch (random.nextInt(7))
        {
            case 0 -> out.put((byte)(0x5C ^ (1 + random.nextInt(255)))).put((byte)0).put((byte)EchoMessages.TYPE)
                .put((byte)EchoMessages.FUZZ).putInt(0).putInt(1).put((byte)0);
            case 1 -> out.put((byte)0x5C).put((byte)(0x40 << random.nextInt(2))).put((byte)EchoMessages.TYPE)
                .put((byte)EchoMessages.FUZZ).putInt(0).putInt(0);
            case 2 -> out.put((byte)0x5C).put((byte)0).put((byte)EchoMessages.TYPE).put((byte)EchoMessages.FUZZ)
                .putInt(0).putInt(random.nextBoolean() ? -1 - random.nextInt(1 << 30) : (64 << 20) + 1 + random.nextInt(1 << 20));
            case 3 -> out.put((byte)0x5C).put((byte)0).put((byte)(100 + random.nextInt(100))).put((byte)random.nextInt(256))
                .putInt(0).putInt(0);
            case 4 ->
            {
                out.put((byte)0x5C).put((byte)0).put((byte)EchoMessages.TYPE).put((byte)EchoMessages.FUZZ).putInt(0)
                    .putInt(50 + random.nextInt(1000));
                final int partial = random.nextInt(40);
                for (int i = 0; i < partial; i++)
                {
                    out.put((byte)random.nextInt());
                }
                return true;
            }
            case 5 ->
            {
                out.put((byte)0x5C).put((byte)0).put((byte)EchoMessages.TYPE);
                return true; // cut inside the header
            }
            default ->
            {
                final int n = 12 + random.nextInt(500);
                for (int i = 0; i < n; i++)
                {
                    out.put((byte)random.nextInt());
                }
                final int first = out.position() - n;
                if (out.get(first) == 0x5C)
                {
                    out.put(first, (byte)0x5D);
                }
            }
        }
        return false;
    }

    private static boolean closedByPeer(final InputStream in) throws IOException
    {
        try
        {
            while (in.read() >= 0)
            {
                // the handshake reply, if any
            }
            return true;
        }
        catch (final SocketException reset)
        {
            return true;
        }
    }
}
