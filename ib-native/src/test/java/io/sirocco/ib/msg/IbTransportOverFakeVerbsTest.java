package io.sirocco.ib.msg;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.sirocco.transport.Exporter;
import io.sirocco.transport.Importer;
import io.sirocco.transport.MalformedPayloadException;
import io.sirocco.transport.Message;
import io.sirocco.transport.MessagingService;
import io.sirocco.transport.NodeAddressMap;
import io.sirocco.transport.NodeUnreachableException;
import io.sirocco.transport.Request;
import io.sirocco.transport.Response;
import io.sirocco.transport.TransportContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The real {@link IbTransport} (TCP handshake, staging slots, SRQ, credits in the immediate, stream order) between
 * messaging nodes, with the verbs replaced by {@link FakeMessagingVerbs}. The window is small and the receive queue
 * tiny, so the run depends on credits flowing back and on receivers-not-ready being waited out.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
final class IbTransportOverFakeVerbsTest
{
    private static final int TYPE = 77;
    private static final int DATA = 1;
    private static final int ECHO = 2;
    private static final int ECHO_RESPONSE = 3;

    private final List<MessagingService> nodes = new ArrayList<>();
    private final NodeAddressMap addresses = new NodeAddressMap();

    @AfterEach
    void closeNodes()
    {
        nodes.forEach(MessagingService::close);
    }

    private MessagingService node(final int id)
    {
        final MessagingService node = MessagingService.start(new TransportContext()
            .ownNodeId(id).transport("ib-fake").addressMap(addresses)
            .ringBufferBytes(64 * 1024).flowControlWindowBytes(16 * 1024));
        nodes.add(node);
        return node;
    }

    private static int freePort() throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0))
        {
            return socket.getLocalPort();
        }
    }

    @Test
    void orderedStreamsAndRequestsFlowBothWays() throws Exception
    {
        addresses.put(1, InetAddress.getLoopbackAddress().getHostAddress(), freePort());
        addresses.put(2, InetAddress.getLoopbackAddress().getHostAddress(), freePort());
        final MessagingService a = node(1);
        final MessagingService b = node(2);
        final int count = 3000;
        final Map<Integer, List<Long>> received = new ConcurrentHashMap<>();
        final CountDownLatch all = new CountDownLatch(2 * count);
        for (final MessagingService n : List.of(a, b))
        {
            n.register(TYPE, DATA, Data::new, (Data d) ->
            {
                assertThat(d.intact()).isTrue();
                received.computeIfAbsent(n.ownNodeId(), k -> Collections.synchronizedList(new ArrayList<>()))
                    .add(d.sequence);
                all.countDown();
            });
            n.registerMessageType(TYPE, ECHO_RESPONSE, Echo::response);
            n.register(TYPE, ECHO, Echo::request, (Echo e) -> n.respond(e, Echo.answer(e.value + 1)));
        }

        final Thread other = Thread.ofPlatform().start(() ->
        {
            for (long i = 0; i < count; i++)
            {
                b.send(new Data(i, (int)(i % 700)), 1);
            }
        });
        for (long i = 0; i < count; i++)
        {
            a.send(new Data(i, (int)(i % 700)), 2);
        }
        other.join();

        assertThat(all.await(90, TimeUnit.SECONDS)).as("all messages arrived").isTrue();
        for (final int node : new int[] {1, 2})
        {
            final List<Long> sequence = received.get(node);
            assertThat(sequence).hasSize(count);
            for (int i = 0; i < count; i++)
            {
                assertThat(sequence.get(i)).isEqualTo(i); // one sender thread: per-connection order is kept
            }
        }

        final List<CompletableFuture<EchoResponse>> answers = new ArrayList<>();
        for (int i = 0; i < 200; i++)
        {
            answers.add(a.request(Echo.ask(i), 2));
        }
        for (int i = 0; i < 200; i++)
        {
            assertThat(answers.get(i).get(60, TimeUnit.SECONDS).value).isEqualTo(i + 1);
        }
    }

    @Test
    void aPeerThatVanishesFailsPendingRequestsOnTheNextSend() throws Exception
    {
        addresses.put(5, InetAddress.getLoopbackAddress().getHostAddress(), freePort());
        addresses.put(6, InetAddress.getLoopbackAddress().getHostAddress(), freePort());
        final MessagingService a = node(5);
        final MessagingService b = node(6);
        a.registerMessageType(TYPE, ECHO_RESPONSE, Echo::response);
        b.register(TYPE, ECHO, Echo::request, (Echo e) -> { }); // never answers
        final CompletableFuture<EchoResponse> pending = a.request(Echo.ask(1), 6, 60, TimeUnit.SECONDS);
        b.close();

        // like a real RC queue pair, the sender learns of the loss when its next send is not acknowledged; if the
        // connection was already closed when the peer went, that send reconnects and is refused at once instead
        try
        {
            a.send(new Data(1, 10), 6);
        }
        catch (final NodeUnreachableException refused)
        {
            assertThat(refused).hasMessageContaining("node 6");
        }

        assertThatThrownBy(() -> pending.get(30, TimeUnit.SECONDS))
            .hasCauseInstanceOf(NodeUnreachableException.class)
            .hasMessageContaining("node 6");
    }

    @Test
    void aNodeThatIsGoneIsReportedUnreachable() throws Exception
    {
        addresses.put(3, InetAddress.getLoopbackAddress().getHostAddress(), freePort());
        addresses.put(4, InetAddress.getLoopbackAddress().getHostAddress(), freePort());
        final MessagingService c = node(3);
        c.registerMessageType(TYPE, ECHO_RESPONSE, Echo::response);

        assertThatThrownBy(() -> c.requestSync(Echo.ask(1), 4, 30, TimeUnit.SECONDS))
            .isInstanceOf(NodeUnreachableException.class)
            .hasMessageContaining("node 4");
    }

    /** Sequence plus a payload whose bytes derive from it. */
    static final class Data extends Message
    {
        long sequence;
        byte[] payload = new byte[0];

        Data()
        {
            super(TYPE, DATA, true); // ordered: handled in arrival order, so the stream order is observable
        }

        Data(final long sequence, final int size)
        {
            this();
            this.sequence = sequence;
            this.payload = new byte[size];
            for (int i = 0; i < size; i++)
            {
                payload[i] = (byte)(sequence * 7 + i * 13);
            }
        }

        boolean intact()
        {
            for (int i = 0; i < payload.length; i++)
            {
                if (payload[i] != (byte)(sequence * 7 + i * 13))
                {
                    return false;
                }
            }
            return true;
        }

        @Override
        public int payloadSize()
        {
            return 8 + 4 + payload.length;
        }

        @Override
        public void exportPayload(final Exporter exporter)
        {
            exporter.writeLong(sequence);
            exporter.writeInt(payload.length);
            exporter.writeBytes(payload);
        }

        @Override
        public void importPayload(final Importer importer)
        {
            sequence = importer.readLong();
            final int length = importer.readInt();
            if (length < 0 || length > importer.remaining())
            {
                throw MalformedPayloadException.INSTANCE;
            }
            payload = new byte[length];
            importer.readBytes(payload, 0, length);
        }
    }

    /** Request and response carrying one long. */
    static final class Echo extends Request
    {
        long value;

        Echo()
        {
            super(TYPE, ECHO);
        }

        static Echo request()
        {
            return new Echo();
        }

        static Echo ask(final long value)
        {
            final Echo echo = new Echo();
            echo.value = value;
            return echo;
        }

        static EchoResponse answer(final long value)
        {
            final EchoResponse response = new EchoResponse();
            response.value = value;
            return response;
        }

        static EchoResponse response()
        {
            return new EchoResponse();
        }

        @Override
        public int payloadSize()
        {
            return 8;
        }

        @Override
        public void exportPayload(final Exporter exporter)
        {
            exporter.writeLong(value);
        }

        @Override
        public void importPayload(final Importer importer)
        {
            value = importer.readLong();
        }
    }

    static final class EchoResponse extends Response
    {
        long value;

        EchoResponse()
        {
            super(TYPE, ECHO_RESPONSE);
        }

        @Override
        public int payloadSize()
        {
            return 8;
        }

        @Override
        public void exportPayload(final Exporter exporter)
        {
            exporter.writeLong(value);
        }

        @Override
        public void importPayload(final Importer importer)
        {
            value = importer.readLong();
        }
    }
}
