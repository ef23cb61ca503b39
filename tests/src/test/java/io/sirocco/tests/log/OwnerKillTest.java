package io.sirocco.tests.log;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.sirocco.log.config.LogConfig;
import io.sirocco.log.config.SyncPolicy;
import io.sirocco.log.zone.ZoneId;
import io.sirocco.log.membership.Membership;
import io.sirocco.log.recovery.RecoveryConsumer;
import io.sirocco.log.recovery.RecoveryReport;
import io.sirocco.log.replication.FailoverListener;
import io.sirocco.log.replication.ReplicationBackup;
import io.sirocco.log.replication.ReplicationOwner;
import io.sirocco.log.zone.RandomPlacement;
import io.sirocco.tests.Closer;
import io.sirocco.transport.MessagingService;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The owner runs in its own process and replicates its zones over TCP (nio) to four backups in this JVM; it is
 * killed with SIGKILL. The backups see the connection drop (standing in for the membership layer's failure
 * detector), and each zone is recovered by its first live backup, all zones in parallel, then re-replicated to
 * restore three copies. The recovery time (loss detected to last zone handed over) is printed.
 */
class OwnerKillTest
{
    private static final int OWNER = 1;

    @TempDir
    Path dir;

    @RegisterExtension
    final Closer closeables = new Closer();

    @Test
    @Timeout(240)
    void killedOwnersZonesAreRecoveredInParallelByTheirFirstLiveBackups() throws Exception
    {
        final int zones = 8;
        final int entries = 5000;
        final List<Integer> ids = List.of(OWNER, 2, 3, 4, 5);
        final Map<Integer, Integer> ports = ChildReplicationNode.freePorts(ids);
        final CountDownLatch recoveredAll = new CountDownLatch(zones);
        final Map<ZoneId, Map<Long, byte[]>> recovered = new ConcurrentHashMap<>();
        final Map<ZoneId, Integer> restorers = new ConcurrentHashMap<>();
        final Map<ZoneId, List<Integer>> newBackups = new ConcurrentHashMap<>();
        final AtomicLong detectedNs = new AtomicLong();
        final List<Membership> memberships = new ArrayList<>();
        final Map<Integer, ReplicationOwner> owners = new ConcurrentHashMap<>();
        for (final int id : ids.subList(1, ids.size()))
        {
            final Membership membership = new Membership();
            final MessagingService service = closeables.add(ChildReplicationNode.start(id, ids, ports, membership));
            memberships.add(membership);
            final ReplicationOwner owner = new ReplicationOwner(service, membership, new RandomPlacement(), 3,
                64 * 1024, null);
            owners.put(id, owner);
            final FailoverListener failover = new FailoverListener()
            {
                @Override
                public RecoveryConsumer consumerFor(final ZoneId zone, final int failedOwner)
                {
                    final Map<Long, byte[]> map = recovered.computeIfAbsent(zone, z -> new ConcurrentHashMap<>());
                    return (z, keyHash, sequence, epoch, version, buffer, offset, length) ->
                    {
                        final byte[] copy = new byte[length];
                        buffer.get(offset, copy);
                        map.put(sequence, copy);
                    };
                }

                @Override
                public void onZoneRecovered(final ZoneId zone, final int failedOwner, final RecoveryReport report,
                    final List<Integer> backups)
                {
                    restorers.put(zone, id);
                    newBackups.put(zone, backups);
                    recoveredAll.countDown();
                }
            };
            final ReplicationBackup backup = new ReplicationBackup(service, dir.resolve("backup-" + id),
                new LogConfig().syncPolicy(SyncPolicy.GROUP).segmentSizeBytes(1 << 20).replicationFactor(3),
                membership, new RandomPlacement(), owner, failover);
            closeables.addLast(backup);
            service.addConnectionListener((node, reason) ->
            {
                if (node == OWNER)
                {
                    detectedNs.compareAndSet(0, System.nanoTime());
                    Thread.ofPlatform().start(() -> membership.leave(OWNER));
                }
            });
        }
        final List<String> args = new ArrayList<>(List.of(Integer.toString(OWNER), Integer.toString(zones),
            Integer.toString(entries)));
        ports.forEach((node, port) -> args.add(node + ":" + port));
        try (Children children = new Children())
        {
            final Children.Child child = children.start(LogOwnerMain.class, args.toArray(String[]::new));
            assertThat(child.await(lines -> lines.contains("READY"), 180)).as("owner replicated everything").isTrue();
            final Map<ZoneId, Integer> firstBackups = new ConcurrentHashMap<>();
            for (final String line : child.lines)
            {
                if (line.startsWith("ZONE "))
                {
                    final String[] parts = line.split(" ", 3);
                    final String list = parts[2].replaceAll("[\\[\\] ]", "");
                    firstBackups.put(new ZoneId(0xBEEF, Integer.parseInt(parts[1])),
                        Integer.parseInt(list.split(",")[0]));
                }
            }
            final long killNs = System.nanoTime();
            child.process.destroyForcibly();
            assertThat(recoveredAll.await(120, TimeUnit.SECONDS)).as("every zone recovered").isTrue();
            final long doneNs = System.nanoTime();
            System.out.printf("durable-log owner kill: %d zones x %d entries recovered in parallel; detection %.1f ms "
                + "after kill, recovery %.1f ms after detection%n", zones, entries,
                (detectedNs.get() - killNs) / 1e6, (doneNs - detectedNs.get()) / 1e6);
            for (int z = 0; z < zones; z++)
            {
                final ZoneId zone = new ZoneId(0xBEEF, z);
                assertThat(restorers.get(zone)).as("restorer of %s is its first backup", zone)
                    .isEqualTo(firstBackups.get(zone));
                assertThat(newBackups.get(zone)).hasSize(3).doesNotContain(OWNER, restorers.get(zone));
                final Map<Long, byte[]> map = recovered.get(zone);
                assertThat(map).hasSize(entries);
                for (long i = 0; i < entries; i++)
                {
                    assertThat(map.get(i)).isEqualTo(Payloads.of(z * 1_000_000L + i));
                }
                assertThat(owners.get(restorers.get(zone)).awaitPersisted(zone, entries - 1,
                    TimeUnit.SECONDS.toNanos(60))).as("%s re-replicated to 3 backups", zone).isTrue();
            }
        }
    }
}
