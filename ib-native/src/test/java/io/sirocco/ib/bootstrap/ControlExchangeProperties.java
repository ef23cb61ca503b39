package io.sirocco.ib.bootstrap;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.sirocco.transport.MessagingService;
import io.sirocco.transport.TransportContext;
import io.sirocco.transport.loopback.LoopbackFabric;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Whatever order the members of a view start their rounds in, and whether an offer arrives before or after its
 * receiver started the round, every member ends each round with exactly each peer's blob for itself, and round 1
 * never mixes with round 0.
 */
final class ControlExchangeProperties
{
    @Property(tries = 15)
    void everyStartOrderGivesEveryMemberEachPeersBlob(
        @ForAll @IntRange(min = 2, max = 5) final int members,
        @ForAll final long shuffleSeed) throws Exception
    {
        final LoopbackFabric fabric = new LoopbackFabric();
        final List<MessagingService> services = new ArrayList<>();
        try
        {
            final int[] nodeIds = new int[members];
            final List<ControlExchange> exchanges = new ArrayList<>();
            for (int rank = 0; rank < members; rank++)
            {
                nodeIds[rank] = 100 + rank;
                final MessagingService service = MessagingService.start(new TransportContext().ownNodeId(100 + rank)
                    .transport("loopback").loopbackFabric(fabric).handlerThreads(1).ringBufferBytes(1 << 16));
                services.add(service);
                exchanges.add(new ControlExchange(service));
            }
            final List<Integer> order = new ArrayList<>();
            for (int rank = 0; rank < members; rank++)
            {
                order.add(rank);
            }
            Collections.shuffle(order, new java.util.Random(shuffleSeed));

            final List<CompletableFuture<byte[][][]>> results = new ArrayList<>();
            for (int i = 0; i < members; i++)
            {
                results.add(null);
            }
            for (final int rank : order)
            {
                final CompletableFuture<byte[][][]> result = new CompletableFuture<>();
                results.set(rank, result);
                Thread.ofPlatform().daemon().start(() ->
                {
                    try
                    {
                        final byte[][] round0 = exchanges.get(rank).exchange(9, 0, rank, nodeIds,
                            peer -> blob(0, rank, peer), 30_000);
                        final byte[][] round1 = exchanges.get(rank).exchange(9, 1, rank, nodeIds,
                            peer -> blob(1, rank, peer), 30_000);
                        result.complete(new byte[][][] {round0, round1});
                    }
                    catch (final IOException | RuntimeException ex)
                    {
                        result.completeExceptionally(ex);
                    }
                });
            }
            for (int rank = 0; rank < members; rank++)
            {
                final byte[][][] got = results.get(rank).get(60, TimeUnit.SECONDS);
                for (int round = 0; round < 2; round++)
                {
                    for (int peer = 0; peer < members; peer++)
                    {
                        if (peer == rank)
                        {
                            assertThat(got[round][peer]).isNull();
                        }
                        else
                        {
                            assertThat(new String(got[round][peer], StandardCharsets.UTF_8))
                                .isEqualTo(round + ":" + peer + "->" + rank);
                        }
                    }
                }
            }
        }
        finally
        {
            services.forEach(MessagingService::close);
        }
    }

    private static byte[] blob(final int round, final int from, final int to)
    {
        return (round + ":" + from + "->" + to).getBytes(StandardCharsets.UTF_8);
    }
}
