package io.sirocco.multicast.contact;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 23, forged beacons: registry connects to contacts that never answer must not hold the registry messages to a
 * live member. Twenty made-up nodes all point at a socket that never accepts (its connects hang or never get a
 * hello back, each for up to a timeout); a message queued behind them to a connected member must arrive before those
 * twenty connects have all failed. With one outbox thread for everything it arrived only after all twenty.
 */
@Timeout(300)
class RegistryOutboxTest
{
    private static final int BOGUS = 20;

    @Test
    void aLiveMemberIsNotHeldBehindConnectsToSilentContacts() throws Exception
    {
        final InetAddress loopback = InetAddress.getLoopbackAddress();
        try (ServerSocket silent = new ServerSocket(0, 1, loopback);
            RegistryEndpoint from = endpoint();
            RegistryEndpoint live = endpoint();
            RegistryOutbox outbox = new RegistryOutbox("outbox-test", from))
        {
            final AtomicInteger received = new AtomicInteger();
            live.onMessages(m -> received.incrementAndGet());
            final int liveNode = RegistryEndpoint.nodeOf(live.contact());
            from.learn(liveNode, live.contact());
            outbox.submit(hello(from), liveNode);
            assertThat(await(() -> received.get() == 1)).as("the first message to the live member").isTrue();

            for (int i = 0; i < BOGUS; i++)
            {
                final int node = 65_100 + i;
                from.learn(node, loopback.getHostAddress() + ":" + silent.getLocalPort());
                outbox.submit(hello(from), node);
            }
            outbox.submit(hello(from), liveNode);
            assertThat(await(() -> received.get() == 2)).as("the second message to the live member").isTrue();
            final long failedBefore = outbox.failedSends();
            assertThat(failedBefore).as("connects to silent contacts that had failed when the live member's message " +
                "arrived (all of them: it waited behind them)").isLessThan(BOGUS);
            assertThat(await(() -> outbox.failedSends() == BOGUS)).as("every silent contact fails in the end")
                .isTrue();
        }
    }

    private static RegistryEndpoint endpoint() throws Exception
    {
        final int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            port = probe.getLocalPort();
        }
        return new RegistryEndpoint("outbox-test", new ContactSettings("127.0.0.1", port, List.of(), false,
            "239.255.0.1", 7400, 1000, 0));
    }

    private static RegistryMessage hello(final RegistryEndpoint from)
    {
        return RegistryMessage.of(RegistryMessage.HELLO, 0, 1, "outbox-test", from.contact(), "");
    }

    private static boolean await(final java.util.function.BooleanSupplier condition)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() > deadline)
            {
                return false;
            }
            LockSupport.parkNanos(10_000_000L);
        }
        return true;
    }
}
