package io.sirocco.transport;

import io.sirocco.transport.loopback.LoopbackFabric;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(60)
class LoopbackMessagingTest
{
    private final LoopbackFabric fabric = new LoopbackFabric();
    private final List<MessagingService> nodes = new ArrayList<>();

    private MessagingService node(final int id)
    {
        final MessagingService node = MessagingService.start(new TransportContext()
            .ownNodeId(id).transport("loopback").loopbackFabric(fabric).ringBufferBytes(64 * 1024));
        nodes.add(node);
        return node;
    }

    @AfterEach
    void closeNodes()
    {
        nodes.forEach(MessagingService::close);
    }

    @Test
    void shouldMatchResponsesToRequests()
    {
        final MessagingService a = node(1);
        final MessagingService b = node(2);
        TestMessages.registerEcho(a);
        TestMessages.registerEcho(b);

        final TestMessages.EchoResponse sync = a.requestSync(new TestMessages.EchoRequest(41, "hello"), 2, 30, TimeUnit.SECONDS);
        assertThat(sync.value).isEqualTo(42);
        assertThat(sync.text).isEqualTo("hello");
        assertThat(sync.sourceNodeId()).isEqualTo(2);

        final List<CompletableFuture<TestMessages.EchoResponse>> futures = new ArrayList<>();
        for (int i = 0; i < 1000; i++)
        {
            futures.add(b.request(new TestMessages.EchoRequest(i, "n" + i), 1));
        }
        for (int i = 0; i < 1000; i++)
        {
            final TestMessages.EchoResponse response = futures.get(i).join();
            assertThat(response.value).isEqualTo(i + 1);
            assertThat(response.text).isEqualTo("n" + i);
        }
        assertThat(a.outstandingRequests()).isZero();
        assertThat(b.outstandingRequests()).isZero();
    }

    @Test
    void shouldDeliverToSeveralNodesAndToItself() throws Exception
    {
        final MessagingService a = node(1);
        final MessagingService b = node(2);
        final MessagingService c = node(3);
        final ConcurrentLinkedQueue<Integer> received = new ConcurrentLinkedQueue<>();
        final CountDownLatch latch = new CountDownLatch(3);
        for (final MessagingService n : List.of(a, b, c))
        {
            n.register(TestMessages.TYPE, TestMessages.DATA, TestMessages.Data::new, (TestMessages.Data d) ->
            {
                received.add(n.ownNodeId() * 100 + d.sourceNodeId());
                latch.countDown();
            });
        }
        a.send(new TestMessages.Data().fill(1, 0, 0, 10), 1, 2, 3);
        assertThat(latch.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(received).containsExactlyInAnyOrder(101, 201, 301);
    }

    @Test
    void shouldFailRequestsToUnknownNode()
    {
        final MessagingService a = node(1);
        TestMessages.registerEcho(a);
        assertThatThrownBy(() -> a.requestSync(new TestMessages.EchoRequest(1, ""), 9, 30, TimeUnit.SECONDS))
            .isInstanceOf(NodeUnreachableException.class).hasMessageContaining("node 9");
    }

    @Test
    void shouldFailPendingRequestsWhenPeerCloses()
    {
        final MessagingService a = node(1);
        final MessagingService b = node(2);
        TestMessages.registerEcho(a);
        b.registerMessageType(TestMessages.TYPE, TestMessages.ECHO_RESPONSE, TestMessages.EchoResponse::new);
        b.register(TestMessages.TYPE, TestMessages.ECHO_REQUEST, TestMessages.EchoRequest::new, r -> { }); // never answers
        final CompletableFuture<TestMessages.EchoResponse> pending =
            a.request(new TestMessages.EchoRequest(1, ""), 2, 60, TimeUnit.SECONDS);
        assertThat(pending).isNotDone();
        b.close();
        assertThatThrownBy(pending::join).hasCauseInstanceOf(NodeUnreachableException.class)
            .hasMessageContaining("node 2");
    }

    @Test
    void shouldTimeOutUnansweredRequests()
    {
        final MessagingService a = node(1);
        final MessagingService b = node(2);
        TestMessages.registerEcho(a);
        b.register(TestMessages.TYPE, TestMessages.ECHO_REQUEST, TestMessages.EchoRequest::new, r -> { });
        assertThatThrownBy(() -> a.requestSync(new TestMessages.EchoRequest(1, ""), 2, 50, TimeUnit.MILLISECONDS))
            .isInstanceOf(RequestTimeoutException.class);
        assertThat(a.outstandingRequests()).isZero();
    }

    @Test
    void shouldRejectExportThatBreaksItsSizeButKeepTheConnection()
    {
        final MessagingService a = node(1);
        final MessagingService b = node(2);
        TestMessages.registerEcho(a);
        TestMessages.registerEcho(b);
        final Message liar = new Message(TestMessages.TYPE, TestMessages.DATA)
        {
            @Override public int payloadSize() { return 4; }
            @Override public void exportPayload(final Exporter exporter) { exporter.writeLong(1); }
            @Override public void importPayload(final Importer importer) { }
        };
        assertThatThrownBy(() -> a.send(liar, 2)).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("payloadSize()");
        final TestMessages.EchoResponse response = a.requestSync(new TestMessages.EchoRequest(1, "x"), 2, 30, TimeUnit.SECONDS);
        assertThat(response.value).isEqualTo(2);
    }
}
