package io.sirocco.ib.bootstrap;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import io.sirocco.transport.MessagingService;
import io.sirocco.transport.TransportContext;
import io.sirocco.transport.loopback.LoopbackFabric;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The RDMA set-up exchange over messaging-transport requests and responses, between loopback nodes. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
final class ControlExchangeTest
{
    private final LoopbackFabric fabric = new LoopbackFabric();
    private final List<MessagingService> nodes = new ArrayList<>();

    private ControlExchange node(final int nodeId)
    {
        final MessagingService service = MessagingService.start(new TransportContext().ownNodeId(nodeId)
            .transport("loopback").loopbackFabric(fabric).handlerThreads(1).ringBufferBytes(1 << 16));
        nodes.add(service);
        return new ControlExchange(service);
    }

    @AfterEach
    void close()
    {
        nodes.forEach(MessagingService::close);
    }

    private static byte[] blob(final int from, final int to)
    {
        return (from + "->" + to).getBytes(StandardCharsets.UTF_8);
    }

    private static String text(final byte[] blob)
    {
        return new String(blob, StandardCharsets.UTF_8);
    }

    private static CompletableFuture<byte[][]> run(final ControlExchange exchange, final long viewId, final int round,
        final int rank, final int[] nodeIds, final long timeoutMs)
    {
        final CompletableFuture<byte[][]> result = new CompletableFuture<>();
        Thread.ofPlatform().daemon().start(() ->
        {
            try
            {
                result.complete(exchange.exchange(viewId, round, rank, nodeIds, peer -> blob(rank, peer), timeoutMs));
            }
            catch (final IOException | RuntimeException ex)
            {
                result.completeExceptionally(ex);
            }
        });
        return result;
    }

    @Test
    void everyMemberGetsEachPeersBlobForItself() throws Exception
    {
        final int[] nodeIds = {11, 12, 13, 14};
        final List<ControlExchange> members = new ArrayList<>();
        for (final int id : nodeIds)
        {
            members.add(node(id));
        }
        final List<CompletableFuture<byte[][]>> results = new ArrayList<>();
        for (int rank = 0; rank < nodeIds.length; rank++)
        {
            results.add(run(members.get(rank), 7, 0, rank, nodeIds, 30_000));
        }
        for (int rank = 0; rank < nodeIds.length; rank++)
        {
            final byte[][] got = results.get(rank).get(45, TimeUnit.SECONDS);
            for (int peer = 0; peer < nodeIds.length; peer++)
            {
                if (peer == rank)
                {
                    assertThat(got[peer]).isNull();
                }
                else
                {
                    assertThat(text(got[peer])).isEqualTo(peer + "->" + rank);
                }
            }
        }
    }

    @Test
    void anOfferForARoundNotStartedYetIsParkedThenAnswered() throws Exception
    {
        final int[] nodeIds = {21, 22};
        final ControlExchange low = node(21);
        final ControlExchange high = node(22);
        final CompletableFuture<byte[][]> highResult = run(high, 3, 0, 1, nodeIds, 30_000);
        awaitTrue(() -> low.parkedOffers() == 1);
        assertThat(highResult).isNotDone();

        final byte[][] lowGot = low.exchange(3, 0, 0, nodeIds, peer -> blob(0, peer), 30_000);
        assertThat(text(lowGot[1])).isEqualTo("1->0");
        assertThat(text(highResult.get(30, TimeUnit.SECONDS)[0])).isEqualTo("0->1");
        assertThat(low.parkedOffers()).isZero();
    }

    @Test
    void roundsAndViewsAreKeptApart() throws Exception
    {
        final int[] nodeIds = {31, 32};
        final ControlExchange low = node(31);
        final ControlExchange high = node(32);
        // the higher rank runs view 5 round 1 while the lower one runs round 0: neither may complete the other
        final CompletableFuture<byte[][]> highRound1 = run(high, 5, 1, 1, nodeIds, 30_000);
        awaitTrue(() -> low.parkedOffers() == 1);
        assertThatThrownBy(() -> low.exchange(5, 0, 0, nodeIds, peer -> blob(0, peer), 300))
            .isInstanceOf(IOException.class)
            .hasMessageContaining("view 5 round 0")
            .hasMessageContaining("rank 1");
        assertThat(text(low.exchange(5, 1, 0, nodeIds, peer -> blob(0, peer), 30_000)[1])).isEqualTo("1->0");
        assertThat(text(highRound1.get(30, TimeUnit.SECONDS)[0])).isEqualTo("0->1");

        // once view 6 started, a late offer of view 5 is dropped, not answered with view 6's data
        final CompletableFuture<byte[][]> lowView6 = run(low, 6, 0, 0, nodeIds, 30_000);
        assertThatThrownBy(() -> high.exchange(4, 0, 1, nodeIds, peer -> blob(1, peer), 500))
            .isInstanceOf(IOException.class)
            .hasMessageContaining("rank 0");
        assertThat(text(high.exchange(6, 0, 1, nodeIds, peer -> blob(1, peer), 30_000)[0])).isEqualTo("0->1");
        assertThat(text(lowView6.get(30, TimeUnit.SECONDS)[1])).isEqualTo("1->0");
    }

    @Test
    void aMissingPeerIsNamedWhenTheDeadlinePasses()
    {
        final int[] nodeIds = {41, 42, 43};
        final ControlExchange middle = node(42);
        // rank 0 (node 41) never starts; rank 2 (node 43) never offers
        assertThatThrownBy(() -> middle.exchange(1, 0, 1, nodeIds, peer -> blob(1, peer), 500))
            .isInstanceOf(IOException.class)
            .hasMessageContaining("rank 0 (node 41) did not answer rank 1");
        final ControlExchange low = node(41);
        final CompletableFuture<byte[][]> lowResult = run(low, 2, 0, 0, nodeIds, 30_000);
        assertThatThrownBy(() -> middle.exchange(2, 0, 1, nodeIds, peer -> blob(1, peer), 500))
            .isInstanceOf(IOException.class)
            .hasMessageContaining("heard nothing from rank 2 of 3 members");
        lowResult.cancel(true);
    }

    private static void awaitTrue(final BooleanSupplier condition) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean())
        {
            assertThat(System.nanoTime()).as("condition within 30 s").isLessThan(deadline);
            Thread.sleep(2);
        }
    }
}
