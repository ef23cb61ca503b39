package io.sirocco.multicast;

import io.sirocco.multicast.contact.ContactSettings;
import io.sirocco.multicast.contact.NetRegistry;
import io.sirocco.multicast.model.DeliveryMode;
import io.sirocco.multicast.model.Role;
import io.sirocco.multicast.model.SubgroupSpec;
import io.sirocco.multicast.model.View;
import io.sirocco.multicast.spi.shm.ShmRowTransportProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The network registry ({@link NetRegistry}) in one JVM over loopback: each member has its own replica and endpoint,
 * so membership travels only over messaging-transport (no shared registry files), with the tcp row transport.
 */
class NetRegistryTest
{
    private static final SubgroupSpec SPEC = SubgroupSpec.of("a", DeliveryMode.ORDERED).withWindow(16);

    @Test
    void parsesPeerListsWithDefaultPortAndNamesBadEntries()
    {
        assertThat(ContactSettings.parsePeers("127.0.0.1:7001, 127.0.0.2;127.0.0.3:9 [::1]:5", 7400)).containsExactly(
            new InetSocketAddress("127.0.0.1", 7001), new InetSocketAddress("127.0.0.2", 7400),
            new InetSocketAddress("127.0.0.3", 9), new InetSocketAddress("::1", 5));
        assertThat(ContactSettings.parsePeers("  ", 7400)).isEmpty();
        assertThatThrownBy(() -> ContactSettings.parsePeers("127.0.0.1:x", 7400))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'127.0.0.1:x'");
        assertThatThrownBy(() -> ContactSettings.parsePeers("h:70000", 7400))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'h:70000'");
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void joinersReachTheGroupThroughOneListedContactAndDeliverTheSameSequence() throws Exception
    {
        final String group = "nr" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 8);
        final int contactPort = TestCluster.freePort();
        final List<InetSocketAddress> peers = List.of(new InetSocketAddress("127.0.0.1", contactPort));
        // Every member asks for the listed port: the first binds it, the others find it taken and bind ephemeral
        // ports; multicast is asked for on loopback, which has none, so it falls back to the static peer.
        final List<TestCluster.Recorder> recorders = new ArrayList<>();
        final List<Group> groups = startTogether(group, 3, i -> new ContactSettings("127.0.0.1", contactPort, peers,
            true, "239.255.0.1", 7399, 50, 300), recorders, i -> i == 0 ? 0 : 200);
        try
        {
            for (final Group g : groups)
            {
                awaitViewSize(g, 3);
            }
            assertThat(Files.exists(ShmRowTransportProvider.root().resolve("sirocco-" + group)))
                .as("no shared registry directory").isFalse();
            final List<Thread> senders = Senders.start(groups, "a", new int[] {300, 300, 300}, 200, 0, 7);
            for (final Thread t : senders)
            {
                t.join(60_000);
            }
            Senders.awaitDelivered(recorders, 900);
            final List<TestCluster.Delivery> first = recorders.get(0).list();
            assertThat(first).hasSize(900);
            for (final TestCluster.Recorder r : recorders)
            {
                assertThat(r.list()).isEqualTo(first);
            }
            final Group leaving = groups.remove(2);
            leaving.close();
            for (final Group g : groups)
            {
                awaitViewSize(g, 2);
            }
            assertThat(groups.get(0).view().rankOf(leaving.memberId())).isEqualTo(-1);
        }
        finally
        {
            groups.forEach(Group::close);
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void listedPeersStartingTogetherFormExactlyOneGroup() throws Exception
    {
        final String group = "nr" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 8);
        final int[] ports = {TestCluster.freePort(), TestCluster.freePort(), TestCluster.freePort()};
        final List<InetSocketAddress> peers = new ArrayList<>();
        for (final int p : ports)
        {
            peers.add(new InetSocketAddress("127.0.0.1", p));
        }
        final List<TestCluster.Recorder> recorders = new ArrayList<>();
        final List<Group> groups = startTogether(group, 3, i -> new ContactSettings("127.0.0.1", ports[i], peers,
            false, "239.255.0.1", 7399, 50, 1000), recorders, i -> 0);
        try
        {
            for (final Group g : groups)
            {
                awaitViewSize(g, 3);
            }
            final View v = groups.get(0).view();
            for (final Group g : groups)
            {
                assertThat(g.view().viewId()).isEqualTo(v.viewId());
                assertThat(g.view().members()).isEqualTo(v.members());
            }
        }
        finally
        {
            groups.forEach(Group::close);
        }
    }

    private static List<Group> startTogether(final String group, final int n,
        final java.util.function.IntFunction<ContactSettings> settings, final List<TestCluster.Recorder> recorders,
        final java.util.function.IntUnaryOperator startDelayMs) throws Exception
    {
        final ExecutorService pool = Executors.newFixedThreadPool(n);
        try
        {
            final List<Future<Group>> fs = new ArrayList<>();
            for (int i = 0; i < n; i++)
            {
                final TestCluster.Recorder rec = new TestCluster.Recorder();
                recorders.add(rec);
                final long id = 300 + i;
                final int idx = i;
                final GroupConfig cfg = GroupConfig.defaults(group).withTransport("tcp").withMemberId(id)
                    .withIdle(50, 10, 50_000).withFailureDetection(10, TestCluster.QUIET_SUSPICION_MS)
                    .withEndpoint("127.0.0.1:" + TestCluster.freePort());
                fs.add(pool.submit(() ->
                {
                    Thread.sleep(startDelayMs.applyAsInt(idx));
                    return Group.join(cfg, new NetRegistry(group, id, settings.apply(idx)),
                        List.of(new Group.SubgroupRegistration(SPEC, Role.WRITER_READER, rec)), null,
                        Duration.ofSeconds(60));
                }));
            }
            final List<Group> groups = new ArrayList<>();
            for (final Future<Group> f : fs)
            {
                groups.add(f.get());
            }
            return groups;
        }
        finally
        {
            pool.shutdown();
        }
    }

    private static void awaitViewSize(final Group g, final int size) throws InterruptedException
    {
        final long deadline = System.nanoTime() + 60_000_000_000L;
        while (g.view().members().size() != size && System.nanoTime() < deadline)
        {
            Thread.sleep(5);
        }
        assertThat(g.view().members()).as("view of member %d", g.memberId()).hasSize(size);
    }
}
