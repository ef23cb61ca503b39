package io.sirocco.ib.row;

import java.lang.foreign.MemorySegment;
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

import io.sirocco.multicast.ClaimResult;
import io.sirocco.multicast.DeliveryHandler;
import io.sirocco.multicast.DeliveryMode;
import io.sirocco.multicast.Group;
import io.sirocco.multicast.GroupConfig;
import io.sirocco.multicast.Role;
import io.sirocco.multicast.SlotClaim;
import io.sirocco.multicast.smc.SpindleOptions;
import io.sirocco.multicast.SubgroupSpec;
import io.sirocco.multicast.view.ShmRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The atomic-multicast protocol (SST, SMC, predicates, view installation) running on {@link RdmaRowTransport} and its
 * {@link PushPlanner}, with the verbs replaced by the in-memory fabric of {@link FakeRdmaRowTransportProvider}: three
 * members in this JVM, each sending, must deliver the same messages in the same order, with no suspicion raised.
 */
final class RdmaRowTransportGroupTest
{
    private record Delivery(long sender, long index, long seq, long word)
    {
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void threeMembersDeliverTheSameOrderOverThePlanner() throws Exception
    {
        final int members = 3;
        final int perMember = 60;
        final String group = "ibf" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 8);
        final List<ConcurrentLinkedQueue<Delivery>> delivered = new ArrayList<>();
        final List<Group> groups = new ArrayList<>();
        final ExecutorService pool = Executors.newFixedThreadPool(members);
        try
        {
            final List<Future<Group>> joins = new ArrayList<>();
            for (int i = 0; i < members; i++)
            {
                final ConcurrentLinkedQueue<Delivery> mine = new ConcurrentLinkedQueue<>();
                delivered.add(mine);
                final DeliveryHandler handler = (senderId, senderRank, index, seq, payload, length) ->
                    mine.add(new Delivery(senderId, index, seq, payload.get(ValueLayout.JAVA_LONG_UNALIGNED, 0)));
                final GroupConfig config = GroupConfig.defaults(group).withTransport("rdma-fake").withRegistry("shm")
                    .withMemberId(100 + i).withContact(i == 0, members).withSpindle(SpindleOptions.ALL_ON)
                    .withIdle(50, 10, 50_000);
                final List<Group.SubgroupRegistration> registrations = List.of(new Group.SubgroupRegistration(
                    SubgroupSpec.of("a", DeliveryMode.ORDERED).withWindow(4), Role.WRITER_READER, handler));
                joins.add(pool.submit(() -> Group.join(config, registrations, null, Duration.ofSeconds(30))));
            }
            for (final Future<Group> join : joins)
            {
                groups.add(join.get(60, TimeUnit.SECONDS));
            }

            final SlotClaim claim = new SlotClaim();
            for (int n = 0; n < perMember; n++)
            {
                for (final Group g : groups)
                {
                    assertThat(g.subgroup("a").claim(16, claim, 10_000_000_000L)).isEqualTo(ClaimResult.OK);
                    final MemorySegment buffer = claim.buffer();
                    buffer.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, n);
                    buffer.set(ValueLayout.JAVA_LONG_UNALIGNED, 8, n);
                    claim.commit();
                }
            }
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (delivered.stream().anyMatch(d -> d.size() < members * perMember) && System.nanoTime() < deadline)
            {
                Thread.sleep(5);
            }

            final List<Delivery> first = new ArrayList<>(delivered.get(0));
            assertThat(first).hasSize(members * perMember);
            for (int i = 1; i < members; i++)
            {
                assertThat(new ArrayList<>(delivered.get(i))).isEqualTo(first);
            }
            // each sender's payloads arrive complete and in its send order (indices may skip: null-sends take some)
            for (final long sender : first.stream().map(Delivery::sender).distinct().toList())
            {
                assertThat(first.stream().filter(d -> d.sender() == sender).map(Delivery::word).toList())
                    .isEqualTo(java.util.stream.LongStream.range(0, perMember).boxed().toList());
            }
            assertThat(FakeRdmaRowTransportProvider.SUSPICIONS).noneMatch(x -> x.startsWith(group));
        }
        finally
        {
            pool.shutdownNow();
            groups.forEach(Group::close);
            ShmRegistry.destroy(group);
        }
    }
}
