package io.sirocco.transport;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(120)
class NioMessagingTest
{
    private final NodeAddressMap addresses = new NodeAddressMap();
    private final List<MessagingService> nodes = new ArrayList<>();

    private MessagingService node(final int id)
    {
        return node(id, 100);
    }

    private MessagingService node(final int id, final int maxConnections)
    {
        return node(id, context -> context.maxConnections(maxConnections));
    }

    /** A started nio node on loopback with the test's ring size, {@code settings} applied to its context. */
    private MessagingService node(final int id, final UnaryOperator<TransportContext> settings)
    {
        if (addresses.address(id) == null)
        {
            addresses.put(id, "127.0.0.1", 0);
        }
        final MessagingService node = MessagingService.start(settings.apply(new TransportContext()
            .ownNodeId(id).transport("nio").addressMap(addresses).ringBufferBytes(64 * 1024)));
        nodes.add(node);
        return node;
    }

    @AfterEach
    void closeNodes()
    {
        nodes.forEach(MessagingService::close);
    }

    @Test
    void shouldMatchResponsesOverTcp()
    {
        final MessagingService a = node(1);
        final MessagingService b = node(2);
        TestMessages.registerEcho(a);
        TestMessages.registerEcho(b);
        final TestMessages.EchoResponse response = a.requestSync(new TestMessages.EchoRequest(7, "tcp"), 2, 30, TimeUnit.SECONDS);
        assertThat(response.value).isEqualTo(8);
        assertThat(response.text).isEqualTo("tcp");

        final List<CompletableFuture<TestMessages.EchoResponse>> futures = new ArrayList<>();
        for (int i = 0; i < 2000; i++)
        {
            futures.add((i & 1) == 0 ? a.request(new TestMessages.EchoRequest(i, ""), 2) : b.request(new TestMessages.EchoRequest(i, ""), 1));
        }
        for (int i = 0; i < futures.size(); i++)
        {
            assertThat(futures.get(i).join().value).isEqualTo(i + 1);
        }
    }

    /**
     * With the selector blocking without a timeout ({@code selectorBlockMs(0)}) nothing is served by a
     * timed wake-up any more: the connections, requests and the shutdown must each wake the blocked selector (a
     * missing {@code wakeup} hangs here instead of costing up to 100 ms; without the shutdown's, close takes the 5 s
     * join and the bound below fails).
     */
    @Test
    void shouldServeWorkAndShutDownWhileTheSelectorBlocksWithoutATimeout()
    {
        final List<MessagingService> own = new ArrayList<>();
        for (int id = 11; id <= 12; id++)
        {
            addresses.put(id, "127.0.0.1", 0);
            own.add(MessagingService.start(new TransportContext().ownNodeId(id).transport("nio").addressMap(addresses)
                .ringBufferBytes(64 * 1024).selectorBlockMs(0)));
        }
        try
        {
            TestMessages.registerEcho(own.get(0));
            TestMessages.registerEcho(own.get(1));
            for (int i = 0; i < 20; i++)
            {
                final MessagingService from = own.get(i & 1);
                final int to = (i & 1) == 0 ? 12 : 11;
                final TestMessages.EchoResponse response =
                    from.requestSync(new TestMessages.EchoRequest(i, "b"), to, 30, TimeUnit.SECONDS);
                assertThat(response.value).isEqualTo(i + 1);
            }
        }
        finally
        {
            final long start = System.nanoTime();
            own.forEach(MessagingService::close);
            // shutdown joins the selector thread for up to 5 s each: a selector that missed the wake-up hangs it
            assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(5));
        }
    }

    /**
     * The selector's spin window (sirocco.transport.selector.spin.ns): request/response traffic arms it (the selector
     * polls without blocking between requests), and once the traffic stops the selector blocks in select again, so
     * an idle node does not spin. With the window off it never polls without blocking.
     */
    @Test
    void shouldSpinBetweenRequestsAndBlockAgainOnceIdle() throws Exception
    {
        final MessagingService[] spinning = pair(21, 22, TimeUnit.MILLISECONDS.toNanos(50));
        exchange(spinning[0], 22);
        final TransportStatistics served = spinning[1].statistics();
        assertThat(served.selectorSpinPolls()).as("spin polls of the serving node: %s", served).isPositive();
        final long blocks = served.selectorBlockingSelects();
        // no traffic now: the window closes and the selector blocks again (each timed select counts once)
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (served.selectorBlockingSelects() < blocks + 2 && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
        }
        assertThat(served.selectorBlockingSelects()).as("blocking selects once idle: %s", served)
            .isGreaterThanOrEqualTo(blocks + 2);

        final MessagingService[] blocking = pair(23, 24, 0);
        exchange(blocking[0], 24);
        assertThat(blocking[1].statistics().selectorSpinPolls()).isZero();
        assertThat(blocking[0].statistics().selectorSpinPolls()).isZero();
    }

    private MessagingService[] pair(final int first, final int second, final long spinNs)
    {
        final MessagingService[] pair = new MessagingService[2];
        for (int id = first; id <= second; id++)
        {
            final MessagingService node = node(id, context -> context.selectorSpinNs(spinNs));
            TestMessages.registerEcho(node);
            pair[id - first] = node;
        }
        return pair;
    }

    /** 200 asynchronous round trips, 10 in flight (async, so the selector thread leads the loop throughout). */
    private static void exchange(final MessagingService from, final int to)
    {
        for (int round = 0; round < 20; round++)
        {
            final List<CompletableFuture<TestMessages.EchoResponse>> futures = new ArrayList<>();
            for (int i = 0; i < 10; i++)
            {
                futures.add(from.request(new TestMessages.EchoRequest(round * 10 + i, ""), to));
            }
            for (int i = 0; i < futures.size(); i++)
            {
                assertThat(futures.get(i).join().value).isEqualTo(round * 10 + i + 1);
            }
        }
    }

    @Test
    void shouldSurviveCrossedSimultaneousConnects() throws Exception
    {
        for (int round = 0; round < 5; round++)
        {
            final MessagingService a = node(10 + round * 2);
            final MessagingService b = node(11 + round * 2);
            TestMessages.registerEcho(a);
            TestMessages.registerEcho(b);
            final CountDownLatch start = new CountDownLatch(1);
            final CompletableFuture<Long> ab = CompletableFuture.supplyAsync(() ->
            {
                await(start);
                return a.<TestMessages.EchoResponse>requestSync(new TestMessages.EchoRequest(1, ""), b.ownNodeId(), 30, TimeUnit.SECONDS).value;
            });
            final CompletableFuture<Long> ba = CompletableFuture.supplyAsync(() ->
            {
                await(start);
                return b.<TestMessages.EchoResponse>requestSync(new TestMessages.EchoRequest(2, ""), a.ownNodeId(), 30, TimeUnit.SECONDS).value;
            });
            start.countDown();
            assertThat(ab.get(60, TimeUnit.SECONDS)).isEqualTo(2);
            assertThat(ba.get(60, TimeUnit.SECONDS)).isEqualTo(3);
            // one connection object per side, both directions open, and it keeps working
            for (int i = 0; i < 100; i++)
            {
                assertThat(a.<TestMessages.EchoResponse>requestSync(new TestMessages.EchoRequest(i, ""), b.ownNodeId(), 30, TimeUnit.SECONDS).value).isEqualTo(i + 1);
                assertThat(b.<TestMessages.EchoResponse>requestSync(new TestMessages.EchoRequest(i, ""), a.ownNodeId(), 30, TimeUnit.SECONDS).value).isEqualTo(i + 1);
            }
            assertThat(a.statistics().connectionsOpened()).isEqualTo(1);
            assertThat(b.statistics().connectionsOpened()).isEqualTo(1);
        }
    }

    private static void await(final CountDownLatch latch)
    {
        try
        {
            latch.await();
        }
        catch (final InterruptedException e)
        {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void shouldFailPendingRequestsAtOnceWhenPeerStopsAndReconnectAfterRestart()
    {
        final MessagingService a = node(1);
        MessagingService b = node(2);
        TestMessages.registerEcho(a);
        b.registerMessageType(TestMessages.TYPE, TestMessages.ECHO_RESPONSE, TestMessages.EchoResponse::new);
        b.register(TestMessages.TYPE, TestMessages.ECHO_REQUEST, TestMessages.EchoRequest::new, r -> { });
        final CompletableFuture<TestMessages.EchoResponse> pending = a.request(new TestMessages.EchoRequest(1, ""), 2, 120, TimeUnit.SECONDS);
        final InetSocketAddress bAddress = addresses.address(2);
        b.close();
        assertThatThrownBy(pending::join).hasCauseInstanceOf(NodeUnreachableException.class).hasMessageContaining("node 2");

        addresses.put(2, bAddress);
        b = node(2);
        TestMessages.registerEcho(b);
        final TestMessages.EchoResponse response = waitForEcho(a, 2);
        assertThat(response.value).isEqualTo(43);
    }

    private static TestMessages.EchoResponse waitForEcho(final MessagingService from, final int to)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true)
        {
            try
            {
                return from.requestSync(new TestMessages.EchoRequest(42, ""), to, 30, TimeUnit.SECONDS);
            }
            catch (final NodeUnreachableException e)
            {
                if (System.nanoTime() > deadline)
                {
                    throw e;
                }
            }
        }
    }

    @Test
    void shouldEvictLeastRecentlyUsedConnectionPastTheLimit()
    {
        final MessagingService a = node(1, 2);
        final MessagingService b = node(2);
        final MessagingService c = node(3);
        final MessagingService d = node(4);
        for (final MessagingService n : List.of(a, b, c, d))
        {
            TestMessages.registerEcho(n);
        }
        final BlockingQueue<String> closed = new LinkedBlockingQueue<>();
        a.addConnectionListener((node, reason) -> closed.add(node + ":" + reason));
        a.requestSync(new TestMessages.EchoRequest(1, ""), 2, 30, TimeUnit.SECONDS);
        a.requestSync(new TestMessages.EchoRequest(1, ""), 3, 30, TimeUnit.SECONDS);
        a.requestSync(new TestMessages.EchoRequest(1, ""), 4, 30, TimeUnit.SECONDS);
        assertThat(closed.poll()).startsWith("2:").contains("least recently used");
        // the evicted node is reconnected transparently
        assertThat(a.<TestMessages.EchoResponse>requestSync(new TestMessages.EchoRequest(5, ""), 2, 30, TimeUnit.SECONDS).value).isEqualTo(6);
    }

    @Test
    void shouldCloseOnlyTheConnectionThatSendsGarbage() throws Exception
    {
        final MessagingService a = node(1);
        final MessagingService b = node(2);
        TestMessages.registerEcho(a);
        TestMessages.registerEcho(b);
        final BlockingQueue<String> closed = new LinkedBlockingQueue<>();
        a.addConnectionListener((node, reason) -> closed.add(node + ":" + reason));
        final InetSocketAddress target = addresses.address(1);

        final byte[] badMagic = frame(0x13, 0, TestMessages.TYPE, TestMessages.DATA, 0, 0);
        final byte[] badLength = frame(0x5C, 0, TestMessages.TYPE, TestMessages.DATA, 0, -5);
        final byte[] unknownType = frame(0x5C, 0, 99, 7, 0, 0);
        final byte[] truncated = frame(0x5C, 0, TestMessages.TYPE, TestMessages.DATA, 0, 100);
        final byte[] random = new byte[64];
        new java.util.Random(1).nextBytes(random);
        random[0] = 0x77;
        final String[][] cases = {
            {"bad magic"}, {"bad payload length"}, {"unknown message type (99, 7)"}, {"truncated frame"}, {"bad magic"}};
        final byte[][] inputs = {badMagic, badLength, unknownType, truncated, random};
        for (int i = 0; i < inputs.length; i++)
        {
            final int fakeNode = 500 + i;
            try (SocketChannel channel = SocketChannel.open(target))
            {
                channel.write(ByteBuffer.wrap(hello(fakeNode)));
                channel.write(ByteBuffer.wrap(inputs[i]));
                if (i == 3)
                {
                    channel.shutdownOutput(); // the frame announced 100 payload bytes; none follow
                }
                assertThat(readUntilClosed(channel)).isTrue();
            }
            final String reason = closed.poll(30, TimeUnit.SECONDS);
            assertThat(reason).startsWith(fakeNode + ":").contains(cases[i][0]);
            // the good peer keeps working
            assertThat(b.<TestMessages.EchoResponse>requestSync(new TestMessages.EchoRequest(i, ""), 1, 30, TimeUnit.SECONDS).value).isEqualTo(i + 1);
        }
        assertThat(a.statistics().protocolErrors()).isEqualTo(inputs.length);
    }

    static byte[] hello(final int node)
    {
        // the handshake hello: magic, node id, listening port, incarnation, generation (HandshakeDescriptor)
        return ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN).putInt(0x53495243).putShort((short)node)
            .putShort((short)0).putLong(node * 31L + 7).putLong(0).array();
    }

    static byte[] frame(final int magic, final int flags, final int type, final int subtype, final int requestId, final int length)
    {
        return ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN).put((byte)magic).put((byte)flags).put((byte)type)
            .put((byte)subtype).putInt(requestId).putInt(length).array();
    }

    /** True once the node closed the socket (read returns -1 or the connection is reset). */
    static boolean readUntilClosed(final SocketChannel channel) throws IOException
    {
        channel.socket().setSoTimeout(30_000);
        final java.io.InputStream in = channel.socket().getInputStream();
        try
        {
            while (in.read() >= 0)
            {
                // the handshake reply, then nothing
            }
            return true;
        }
        catch (final java.net.SocketException reset)
        {
            return true;
        }
    }

    @Test
    void shouldCarryLargeMessagesAndKeepOrderOfOrderedMessages() throws Exception
    {
        final MessagingService a = node(1);
        final MessagingService b = node(2);
        final int count = 300;
        final AtomicInteger bad = new AtomicInteger();
        final AtomicInteger next = new AtomicInteger();
        final CountDownLatch done = new CountDownLatch(count);
        b.register(TestMessages.TYPE, TestMessages.ORDERED_DATA, () -> new TestMessages.Data(true), (TestMessages.Data d) ->
        {
            if (!d.intact() || d.sequence != next.getAndIncrement())
            {
                bad.incrementAndGet();
            }
            done.countDown();
        });
        final java.util.Random random = new java.util.Random(5);
        for (int i = 0; i < count; i++)
        {
            final int size = i % 10 == 0 ? 1 + random.nextInt(200_000) : 1 + random.nextInt(3000);
            a.send(new TestMessages.Data(true).fill(1, 0, i, size), 2);
        }
        assertThat(done.await(60, TimeUnit.SECONDS)).isTrue();
        assertThat(bad.get()).isZero();
    }
}
