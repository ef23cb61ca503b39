package io.sirocco.ib.bootstrap;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
final class EndpointExchangeTest
{
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    @Test
    void everyPairSwapsItsBlobs() throws Exception
    {
        final int members = 4;
        final List<EndpointExchange> exchanges = new ArrayList<>();
        final InetSocketAddress[] addresses = new InetSocketAddress[members];
        for (int rank = 0; rank < members; rank++)
        {
            exchanges.add(new EndpointExchange(new InetSocketAddress(LOOPBACK, 0), rank));
            addresses[rank] = new InetSocketAddress(LOOPBACK, exchanges.get(rank).port());
        }
        final ExecutorService pool = Executors.newFixedThreadPool(members);
        try
        {
            final List<Future<Map<Integer, byte[]>>> results = new ArrayList<>();
            for (int rank = members - 1; rank >= 0; rank--) // start in reverse to exercise the connect retries
            {
                final int me = rank;
                results.add(0, pool.submit(() -> exchanges.get(me).exchange(77L, addresses,
                    peer -> (me + "->" + peer).getBytes(StandardCharsets.UTF_8), 30_000)));
            }
            for (int rank = 0; rank < members; rank++)
            {
                final Map<Integer, byte[]> got = results.get(rank).get(30, TimeUnit.SECONDS);
                assertThat(got).hasSize(members - 1).doesNotContainKey(rank);
                for (final Map.Entry<Integer, byte[]> e : got.entrySet())
                {
                    assertThat(new String(e.getValue(), StandardCharsets.UTF_8)).isEqualTo(e.getKey() + "->" + rank);
                }
            }
        }
        finally
        {
            pool.shutdownNow();
            for (final EndpointExchange exchange : exchanges)
            {
                exchange.close();
            }
        }
    }

    @Test
    void garbageAndOtherSessionsAreDroppedAndAMissingPeerIsNamed() throws Exception
    {
        try (EndpointExchange rank0 = new EndpointExchange(new InetSocketAddress(LOOPBACK, 0), 0);
            EndpointExchange stale = new EndpointExchange(new InetSocketAddress(LOOPBACK, 0), 1))
        {
            final InetSocketAddress[] addresses = {
                new InetSocketAddress(LOOPBACK, rank0.port()), new InetSocketAddress(LOOPBACK, stale.port())};
            final ExecutorService pool = Executors.newFixedThreadPool(1);
            try
            {
                try (Socket garbage = new Socket(LOOPBACK, rank0.port()))
                {
                    garbage.getOutputStream().write("GET / HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                }
                // a member of an older view (session 4) tries to join session 5: rejected, never crashes rank 0
                final Future<?> staleAttempt = pool.submit(() -> stale.exchange(4L, addresses, p -> new byte[1], 1_000));
                assertThatThrownBy(() -> rank0.exchange(5L, addresses, p -> new byte[1], 2_000))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("rank 1");
                assertThatThrownBy(() -> staleAttempt.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(IOException.class);
            }
            finally
            {
                pool.shutdownNow();
            }
        }
    }
}
