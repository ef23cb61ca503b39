package io.sirocco.ib.row;

import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import io.sirocco.ib.RdmaAvailability;
import io.sirocco.ib.RdmaUnavailableException;
import io.sirocco.multicast.model.ClaimResult;
import io.sirocco.multicast.model.DeliveryHandler;
import io.sirocco.multicast.model.DeliveryMode;
import io.sirocco.multicast.Group;
import io.sirocco.multicast.GroupConfig;
import io.sirocco.multicast.model.Role;
import io.sirocco.multicast.model.SlotClaim;
import io.sirocco.multicast.model.SubgroupSpec;
import io.sirocco.multicast.view.ShmRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * The {@code rdma} and {@code auto} row transports selected by name through a real {@link Group} on a host without
 * RDMA (CI): {@code rdma} fails in {@code join}, before the member announces itself, naming what is missing;
 * {@code auto} falls back to shm and the group works. On a host with a device both tests are skipped (assumption).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
final class TransportSelectionGroupTest
{
    private static String group(final String prefix)
    {
        return prefix + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 8);
    }

    @Test
    void explicitRdmaFailsInJoinNamingWhatIsMissing()
    {
        final RdmaAvailability probe = RdmaAvailability.probe();
        assumeFalse(probe.available(), "this host has an RDMA device");
        final String group = group("ibr");
        try
        {
            final GroupConfig config = GroupConfig.defaults(group).withTransport("rdma").withRegistry("shm")
                .withMemberId(77).withContact(true, 1).withEndpoint("127.0.0.1:1");
            assertThatThrownBy(() -> Group.join(config, List.of(), null, Duration.ofSeconds(30)))
                .isInstanceOf(RdmaUnavailableException.class)
                .hasMessageContaining("transport 'rdma'")
                .hasMessageContaining("group '" + group + "'")
                .hasMessageContaining(probe.missing());
        }
        finally
        {
            ShmRegistry.destroy(group);
        }
    }

    @Test
    void autoWithoutRdmaFallsBackToShmAndDelivers() throws Exception
    {
        assumeFalse(RdmaAvailability.probe().available(), "this host has an RDMA device");
        final String group = group("iba");
        final int members = 2;
        final int perMember = 20;
        final List<ConcurrentLinkedQueue<Long>> delivered = new ArrayList<>();
        final List<Group> groups = new ArrayList<>();
        final ExecutorService pool = Executors.newFixedThreadPool(members);
        try
        {
            final List<Future<Group>> joins = new ArrayList<>();
            for (int i = 0; i < members; i++)
            {
                final ConcurrentLinkedQueue<Long> mine = new ConcurrentLinkedQueue<>();
                delivered.add(mine);
                final DeliveryHandler handler = (senderId, senderRank, index, seq, payload, length) ->
                    mine.add(senderId * 1000 + payload.get(ValueLayout.JAVA_LONG_UNALIGNED, 0));
                final GroupConfig config = GroupConfig.defaults(group).withTransport("auto").withRegistry("shm")
                    .withMemberId(300 + i).withContact(i == 0, members).withIdle(50, 10, 50_000);
                final List<Group.SubgroupRegistration> registrations = List.of(new Group.SubgroupRegistration(
                    SubgroupSpec.of("a", DeliveryMode.ORDERED).withWindow(4), Role.WRITER_READER, handler));
                joins.add(pool.submit(() -> Group.join(config, registrations, null, Duration.ofSeconds(60))));
            }
            for (final Future<Group> join : joins)
            {
                groups.add(join.get(90, TimeUnit.SECONDS));
            }
            final SlotClaim claim = new SlotClaim();
            for (int n = 0; n < perMember; n++)
            {
                for (final Group g : groups)
                {
                    assertThat(g.subgroup("a").claim(8, claim, 10_000_000_000L)).isEqualTo(ClaimResult.OK);
                    claim.buffer().set(ValueLayout.JAVA_LONG_UNALIGNED, 0, n);
                    claim.commit();
                }
            }
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (delivered.stream().anyMatch(d -> d.size() < members * perMember) && System.nanoTime() < deadline)
            {
                Thread.sleep(5);
            }
            assertThat(new ArrayList<>(delivered.get(0))).hasSize(members * perMember)
                .isEqualTo(new ArrayList<>(delivered.get(1)));
        }
        finally
        {
            pool.shutdownNow();
            groups.forEach(Group::close);
            ShmRegistry.destroy(group);
        }
    }
}
