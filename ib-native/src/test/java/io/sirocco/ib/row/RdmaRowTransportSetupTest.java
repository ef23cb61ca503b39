package io.sirocco.ib.row;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.sirocco.multicast.spi.RowTransport;
import io.sirocco.multicast.spi.RowTransportContext;
import io.sirocco.transport.loopback.LoopbackFabric;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link RdmaRowTransportProvider} opening a view between three members, each with its own control endpoint on
 * messaging-transport (loopback) and its own verbs on {@link FakeRdmaFabric}: queue pairs, table addresses and rkeys
 * travel through the control exchange (a wrong one makes the fake fail the connect or the write), pushes land in the
 * right row of every peer, and an error completion freezes the row and reaches the suspicion listener with the rank
 * of the member whose writes failed.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
final class RdmaRowTransportSetupTest
{
    private static final long ROW = 256;
    private static final long GUARD = 64;
    private static final String GROUP = "setup";

    private record Suspicion(int rank, String reason)
    {
    }

    private final FakeRdmaFabric fabric = new FakeRdmaFabric();
    private final LoopbackFabric control = new LoopbackFabric();
    private final List<RowTransport> open = new ArrayList<>();

    @AfterEach
    void close()
    {
        open.forEach(RowTransport::close);
    }

    private static RowTransportContext context(final int rank)
    {
        final List<RowTransportContext.MemberAddress> members = List.of(
            new RowTransportContext.MemberAddress(501, "h0", 1, "127.0.0.1:30001"),
            new RowTransportContext.MemberAddress(502, "h1", 2, "127.0.0.1:30002"),
            new RowTransportContext.MemberAddress(503, "h2", 3, "127.0.0.1:30003"));
        return new RowTransportContext(GROUP, 4, rank, members, ROW, () -> { });
    }

    /** Opens the view on all three members at once (each open blocks until the exchange and the barrier are done). */
    private List<RdmaRowTransport> openAll() throws Exception
    {
        final List<CompletableFuture<RowTransport>> opening = new ArrayList<>();
        for (int rank = 0; rank < 3; rank++)
        {
            final RdmaRowTransportProvider provider = FakeRdmaRowTransportProvider.provider(fabric, control);
            final RowTransportContext context = context(rank);
            provider.prepare(GROUP, context.members().get(rank));
            opening.add(openOnItsOwnThread(provider, context));
        }
        final List<RdmaRowTransport> transports = new ArrayList<>();
        for (final CompletableFuture<RowTransport> f : opening)
        {
            final RowTransport t = f.get(45, TimeUnit.SECONDS);
            open.add(t);
            transports.add((RdmaRowTransport)t);
        }
        return transports;
    }

    /** One thread per member (the common pool may have a single thread on a small machine). */
    private static CompletableFuture<RowTransport> openOnItsOwnThread(final RdmaRowTransportProvider provider,
        final RowTransportContext context)
    {
        final CompletableFuture<RowTransport> result = new CompletableFuture<>();
        Thread.ofPlatform().daemon().start(() ->
        {
            try
            {
                result.complete(provider.open(context));
            }
            catch (final RuntimeException ex)
            {
                result.completeExceptionally(ex);
            }
        });
        return result;
    }

    private static long word(final RowTransport t, final int row, final long offset)
    {
        return t.table().get(ValueLayout.JAVA_LONG, row * ROW + offset);
    }

    @Test
    void pushesLandInTheSendersRowOfEveryPeer() throws Exception
    {
        final List<RdmaRowTransport> t = openAll();
        for (int rank = 0; rank < 3; rank++)
        {
            final MemorySegment row = t.get(rank).table().asSlice(rank * ROW, ROW);
            for (int i = 0; i < 8; i++)
            {
                row.set(ValueLayout.JAVA_LONG, 8L * i, 1000L * rank + i);
            }
            t.get(rank).pushBytes(0, 64);
            t.get(rank).pushGuard(GUARD, 7 + rank);
            t.get(rank).flush();
        }
        for (int reader = 0; reader < 3; reader++)
        {
            for (int writer = 0; writer < 3; writer++)
            {
                if (reader == writer)
                {
                    continue;
                }
                assertThat(word(t.get(reader), writer, GUARD)).isEqualTo(7 + writer);
                for (int i = 0; i < 8; i++)
                {
                    assertThat(word(t.get(reader), writer, 8L * i)).isEqualTo(1000L * writer + i);
                }
                // nothing of the writer's went into any other row of the reader's table
                final int other = 3 - reader - writer;
                assertThat(word(t.get(reader), other == reader ? writer : other, GUARD))
                    .isIn(0L, 7L + other, 7L + writer);
            }
        }
        assertThat(t).allSatisfy(x -> assertThat(x.pushCount()).isEqualTo(4));
    }

    /** The production control endpoint: messaging-transport's nio (TCP) transport at each member's endpoint. */
    @Test
    void theDefaultControlEndpointRunsTheExchangeOverTcp() throws Exception
    {
        final List<RowTransportContext.MemberAddress> members = List.of(
            new RowTransportContext.MemberAddress(601, "h0", 1, "127.0.0.1:" + freePort()),
            new RowTransportContext.MemberAddress(602, "h1", 2, "127.0.0.1:" + freePort()));
        final List<CompletableFuture<RowTransport>> opening = new ArrayList<>();
        for (int rank = 0; rank < 2; rank++)
        {
            final RdmaRowTransportProvider provider = new RdmaRowTransportProvider(
                FakeRdmaRowTransportProvider.fakeDevice(), RowControlEndpoint::nioContext, fabric::view,
                FakeRdmaRowTransportProvider.config());
            final RowTransportContext context = new RowTransportContext("tcp-setup", 9, rank, members, ROW, () -> { });
            provider.prepare("tcp-setup", members.get(rank));
            opening.add(openOnItsOwnThread(provider, context));
        }
        final RowTransport a = opening.get(0).get(45, TimeUnit.SECONDS);
        open.add(a);
        final RowTransport b = opening.get(1).get(45, TimeUnit.SECONDS);
        open.add(b);
        a.pushGuard(GUARD, 41);
        b.pushGuard(GUARD, 42);
        assertThat(word(b, 0, GUARD)).isEqualTo(41);
        assertThat(word(a, 1, GUARD)).isEqualTo(42);
    }

    private static int freePort() throws java.io.IOException
    {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0))
        {
            return s.getLocalPort();
        }
    }

    @Test
    void anErrorCompletionFreezesTheRowAndReportsThatMember() throws Exception
    {
        final List<RdmaRowTransport> t = openAll();
        final RdmaRowTransport sender = t.get(0);
        sender.table().set(ValueLayout.JAVA_LONG, GUARD, 1);
        sender.pushCounters(GUARD, 1);
        sender.flush();
        assertThat(word(t.get(2), 0, GUARD)).isEqualTo(1);

        // member 503 (rank 2) stops acknowledging: the next write to it completes with IBV_WC_RETRY_EXC_ERR
        fabric.failWrites(GROUP, 501, 503);
        sender.pushGuard(GUARD, 2);
        sender.flush();
        assertThat(sender.isFrozen(2)).isTrue();
        assertThat(sender.isFrozen(1)).isFalse();

        // reported before the membership layer registered: replayed on registration, exactly once
        final List<Suspicion> suspicions = new CopyOnWriteArrayList<>();
        sender.suspicionListener((rank, reason) -> suspicions.add(new Suspicion(rank, reason)));
        assertThat(suspicions).singleElement().satisfies(s ->
        {
            assertThat(s.rank()).isEqualTo(2);
            assertThat(s.reason()).contains("IBV_WC_RETRY_EXC_ERR (12)");
        });

        // the frozen row gets nothing more; the live peer still does
        sender.pushGuard(GUARD, 3);
        sender.flush();
        assertThat(word(t.get(1), 0, GUARD)).isEqualTo(3);
        assertThat(word(t.get(2), 0, GUARD)).isEqualTo(1);

        // a failure after registration goes straight to the listener
        fabric.failWrites(GROUP, 501, 502);
        sender.pushGuard(GUARD, 4);
        sender.flush();
        assertThat(suspicions).extracting(Suspicion::rank).containsExactly(2, 1);
        assertThat(word(t.get(1), 0, GUARD)).isEqualTo(3);
    }
}
