package io.sirocco.log;

import io.sirocco.log.config.SyncPolicy;
import io.sirocco.log.zone.ZoneId;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.sirocco.log.membership.Membership;
import io.sirocco.log.recovery.RecoveryConsumer;
import io.sirocco.log.recovery.RecoveryReport;
import io.sirocco.log.replication.FailoverListener;
import io.sirocco.log.replication.ReplicationBackup;
import io.sirocco.log.replication.ReplicationMessages;
import io.sirocco.log.replication.ReplicationOwner;
import io.sirocco.log.replication.ZoneSource;
import io.sirocco.log.zone.RandomPlacement;
import io.sirocco.transport.MessagingService;
import io.sirocco.transport.TransportContext;
import io.sirocco.transport.loopback.LoopbackFabric;

import static org.assertj.core.api.Assertions.assertThat;

/** Replication over messaging-transport (loopback): acks per zone, a backup lost mid-write, owner failover. */
class ReplicationTest
{
    /** In memory where possible: this class tests replication and failover, not the disk (see MemoryTempDir). */
    @TempDir(factory = MemoryTempDir.class)
    Path dir;

    private final LoopbackFabric fabric = new LoopbackFabric();
    private final List<AutoCloseable> closeables = new ArrayList<>();

    final class Node
    {
        final int id;
        final MessagingService service;
        final Membership membership = new Membership();
        final ReplicationOwner owner;
        final ReplicationBackup backup;

        /** A node whose recoveries nobody waits for (its listener's latch is open from the start). */
        Node(final int id, final List<Integer> all)
        {
            this(id, all, new Recovered(id, new CountDownLatch(0)));
        }

        Node(final int id, final List<Integer> all, final FailoverListener failover)
        {
            this.id = id;
            service = MessagingService.start(new TransportContext().ownNodeId(id).transport("loopback")
                .loopbackFabric(fabric).ringBufferBytes(1 << 20));
            ReplicationMessages.registerTypes(service);
            for (final int member : all)
            {
                membership.join(member);
            }
            owner = new ReplicationOwner(service, membership, new RandomPlacement(), 3, 16 * 1024, null);
            backup = new ReplicationBackup(service, dir.resolve("node-" + id), BackupStoreTest.small(SyncPolicy.GROUP)
                .replicationFactor(3), membership, new RandomPlacement(), owner, failover);
            closeables.add(backup);
            closeables.add(service);
        }
    }

    /** A node for each of ids, in a cluster of all, whose recoveries nobody waits for. */
    private Map<Integer, Node> nodes(final List<Integer> all, final List<Integer> ids)
    {
        final Map<Integer, Node> nodes = new HashMap<>();
        for (final int id : ids)
        {
            nodes.put(id, new Node(id, all));
        }
        return nodes;
    }

    @AfterEach
    void close()
    {
        for (final AutoCloseable c : closeables)
        {
            try
            {
                c.close();
            }
            catch (final Exception ignored)
            {
                // already closed by the test
            }
        }
    }

    static final class Recovered implements FailoverListener
    {
        final Map<String, byte[]> entries = new ConcurrentHashMap<>();
        final Map<ZoneId, Integer> recoveredBy = new ConcurrentHashMap<>();
        final Map<ZoneId, List<Integer>> newBackups = new ConcurrentHashMap<>();
        final CountDownLatch done;
        final int node;

        Recovered(final int node, final CountDownLatch done)
        {
            this.node = node;
            this.done = done;
        }

        @Override
        public RecoveryConsumer consumerFor(final ZoneId zone, final int failedOwner)
        {
            return (z, keyHash, sequence, epoch, version, buffer, offset, length) ->
            {
                final byte[] copy = new byte[length];
                buffer.get(offset, copy);
                entries.put(z.zoneIndex() + ":" + Collected.key(keyHash, sequence), copy);
            };
        }

        @Override
        public void onZoneRecovered(final ZoneId zone, final int failedOwner, final RecoveryReport report,
            final List<Integer> backups)
        {
            recoveredBy.put(zone, node);
            newBackups.put(zone, backups);
            done.countDown();
        }
    }

    @Test
    @Timeout(120)
    void losingOneOfThreeBackupsDuringWritesLeavesCompleteCopiesOnTheOthers()
    {
        final List<Integer> all = List.of(1, 2, 3, 4);
        final Node owner = new Node(1, all);
        final Map<Integer, Node> backups = nodes(all, List.of(2, 3, 4));
        final ZoneId zone = new ZoneId(0x5EED, 0);
        final List<Integer> placement = owner.owner.openZone(zone);
        assertThat(placement).hasSize(3).doesNotContain(1);
        final int victim = placement.get(1);
        long last = -1;
        for (int i = 0; i < 4000; i++)
        {
            if (i == 1500)
            {
                owner.owner.flush(zone);
                backups.get(victim).service.close(); // the backup dies mid-write
                for (final Node node : List.of(owner, backups.get(2), backups.get(3), backups.get(4)))
                {
                    node.membership.leave(victim);
                }
            }
            last = owner.owner.append(zone, i, i, BackupStoreTest.payload(i, 0, 50 + i % 100));
        }
        owner.owner.flush(zone);
        assertThat(owner.owner.awaitPersisted(zone, last, TimeUnit.SECONDS.toNanos(60))).isTrue();
        assertThat(owner.owner.backups(zone)).hasSize(2).doesNotContain(victim);
        for (final int survivor : owner.owner.backups(zone))
        {
            final Collected collected = new Collected();
            backups.get(survivor).backup.store().recover(zone, collected);
            assertThat(collected.entries).hasSize(4000);
            for (int i = 0; i < 4000; i++)
            {
                assertThat(collected.entries.get(Collected.key(i, i))).isEqualTo(BackupStoreTest.payload(i, 0, 50 + i % 100));
            }
        }
    }

    @Test
    @Timeout(120)
    void persistedUpToIsTheMinimumOverTheBackupsAndALeavingBackupStopsCounting()
    {
        final List<Integer> all = List.of(1, 2, 3, 4);
        final Node owner = new Node(1, all);
        final ZoneId zone = new ZoneId(0x31, 0);
        final List<Integer> placement = new RandomPlacement().backups(zone, 1, new java.util.TreeSet<>(all), 3);
        final int mute = placement.get(2);
        final Map<Integer, Node> backups = nodes(all, placement.stream().filter(id -> id != mute).toList());
        // The mute member is up (its transport accepts the batches) but runs no backup, so it never acknowledges.
        final MessagingService muteService = MessagingService.start(new TransportContext().ownNodeId(mute)
            .transport("loopback").loopbackFabric(fabric).ringBufferBytes(1 << 20));
        ReplicationMessages.registerTypes(muteService);
        closeables.add(muteService);
        final ReplicationOwner writer = owner.owner;
        writer.openZone(zone, placement);
        long last = -1;
        for (int i = 0; i < 300; i++)
        {
            last = writer.append(zone, i, i, BackupStoreTest.payload(i, 0, 40));
        }
        writer.flush(zone);
        for (final Node node : backups.values())
        {
            final ZoneHandle handle = waitForZone(node, zone);
            assertThat(node.backup.store().awaitPersisted(handle, last, TimeUnit.SECONDS.toNanos(60))).isTrue();
        }
        assertThat(writer.persistedUpTo(zone)).as("min over backups while one never acks").isEqualTo(-1);
        owner.membership.leave(mute);
        assertThat(writer.awaitPersisted(zone, last, TimeUnit.SECONDS.toNanos(60))).isTrue();
        assertThat(writer.backups(zone)).hasSize(2).doesNotContain(mute);
    }

    private static ZoneHandle waitForZone(final Node node, final ZoneId zone)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        ZoneHandle handle;
        while ((handle = node.backup.store().zone(zone)) == null && System.nanoTime() - deadline < 0)
        {
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
        }
        assertThat(handle).as("zone created on node %d", node.id).isNotNull();
        return handle;
    }

    /** The owner's copy of its zone (what the DDS history cache will be): updated before each append or delete. */
    static final class ModelSource implements ZoneSource
    {
        record Entry(long keyHash, long sequence, byte[] payload)
        {
        }

        final Map<String, Entry> live = new ConcurrentHashMap<>();

        void put(final long keyHash, final long sequence, final byte[] payload)
        {
            live.put(Collected.key(keyHash, sequence), new Entry(keyHash, sequence, payload));
        }

        void remove(final long keyHash, final long sequence)
        {
            live.remove(Collected.key(keyHash, sequence));
        }

        @Override
        public void forEachLive(final ZoneId zone, final EntrySink sink)
        {
            for (final Entry e : live.values())
            {
                sink.onEntry(e.keyHash(), e.sequence(), ByteBuffer.wrap(e.payload()), 0, e.payload().length);
            }
        }
    }

    @Test
    @Timeout(120)
    void losingABackupOfALiveOwnerRestoresTheReplicationFactorWithACompleteCopy() throws Exception
    {
        final List<Integer> all = List.of(1, 2, 3, 4, 5);
        final Node owner = new Node(1, all);
        final ModelSource model = new ModelSource();
        owner.owner.zoneSource(model);
        final Map<Integer, Node> nodes = nodes(all, List.of(2, 3, 4, 5));
        final ZoneId zone = new ZoneId(0x5EED, 1);
        final List<Integer> placement = owner.owner.openZone(zone);
        assertThat(placement).hasSize(3).doesNotContain(1);
        final int victim = placement.get(1);
        final CountDownLatch halfway = new CountDownLatch(1);
        final CountDownLatch killed = new CountDownLatch(1);
        // The backup dies on another thread while the owner keeps writing (overwrites and deletes included).
        final Thread killer = Thread.ofPlatform().name("kill-backup").start(() ->
        {
            try
            {
                halfway.await();
                nodes.get(victim).service.close();
                owner.membership.leave(victim);
                for (final Node node : nodes.values())
                {
                    if (node.id != victim)
                    {
                        node.membership.leave(victim);
                    }
                }
                killed.countDown();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        });
        long last = -1;
        for (int i = 0; i < 6000; i++)
        {
            if (i == 2000)
            {
                halfway.countDown();
            }
            if (i == 4000)
            {
                assertThat(killed.await(60, TimeUnit.SECONDS)).isTrue(); // some writes surely follow the repair
            }
            final long key = i % 1500;
            if (i % 11 == 10)
            {
                model.remove(key, key);
                last = owner.owner.delete(zone, key, key);
            }
            else
            {
                final byte[] payload = BackupStoreTest.payload(key, i, 30 + i % 90);
                model.put(key, key, payload);
                last = owner.owner.append(zone, key, key, payload);
            }
        }
        killer.join();
        owner.owner.flush(zone);
        final List<Integer> now = owner.owner.backups(zone);
        assertThat(now).hasSize(3).doesNotContain(victim, 1);
        assertThat(now).containsAll(placement.stream().filter(b -> b != victim).toList());
        assertThat(owner.owner.awaitPersisted(zone, last, TimeUnit.SECONDS.toNanos(60))).isTrue();
        for (final int backup : now)
        {
            final Collected collected = new Collected();
            nodes.get(backup).backup.store().recover(zone, collected);
            assertThat(collected.report.damages()).as("backup %d", backup).isEmpty();
            assertThat(collected.entries.keySet()).as("backup %d", backup)
                .containsExactlyInAnyOrderElementsOf(model.live.keySet());
            for (final ModelSource.Entry e : model.live.values())
            {
                assertThat(collected.entries.get(Collected.key(e.keyHash(), e.sequence())))
                    .as("backup %d key %d", backup, e.keyHash()).isEqualTo(e.payload());
            }
        }
    }

    @Test
    @Timeout(120)
    void aZoneWithNoLiveEntryIsReReplicatedToo()
    {
        final List<Integer> all = List.of(1, 2, 3, 4, 5);
        final Node owner = new Node(1, all);
        final ModelSource model = new ModelSource();
        owner.owner.zoneSource(model);
        final Map<Integer, Node> nodes = nodes(all, List.of(2, 3, 4, 5));
        final ZoneId zone = new ZoneId(0x5EED, 2);
        final List<Integer> placement = owner.owner.openZone(zone);
        for (int key = 0; key < 50; key++)
        {
            model.put(key, 0, BackupStoreTest.payload(key, 0, 20));
            owner.owner.append(zone, key, 0, BackupStoreTest.payload(key, 0, 20));
        }
        long last = -1;
        for (int key = 0; key < 50; key++)
        {
            model.remove(key, 0);
            last = owner.owner.delete(zone, key, 0);
        }
        owner.owner.flush(zone);
        final int victim = placement.get(0);
        nodes.get(victim).service.close();
        owner.membership.leave(victim);
        final List<Integer> now = owner.owner.backups(zone);
        assertThat(now).hasSize(3).doesNotContain(victim);
        final int added = now.stream().filter(b -> !placement.contains(b)).findFirst().orElseThrow();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (owner.owner.acknowledged(zone, added) < last && System.nanoTime() - deadline < 0)
        {
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
        }
        assertThat(owner.owner.acknowledged(zone, added)).as("the new backup acknowledges the empty zone")
            .isEqualTo(last);
        assertThat(owner.owner.awaitPersisted(zone, last, TimeUnit.SECONDS.toNanos(60))).isTrue();
    }

    @Test
    @Timeout(120)
    void ownerFailureRecoversEveryZoneOnItsFirstLiveBackupAndRestoresReplication() throws Exception
    {
        final List<Integer> all = List.of(1, 2, 3, 4, 5);
        final int zones = 6;
        final CountDownLatch done = new CountDownLatch(zones);
        final Map<Integer, Recovered> recovered = new HashMap<>();
        final Node owner = new Node(1, all, new Recovered(1, done));
        final List<Node> others = new ArrayList<>();
        for (final int id : List.of(2, 3, 4, 5))
        {
            final Recovered r = new Recovered(id, done);
            recovered.put(id, r);
            others.add(new Node(id, all, r));
        }
        final Map<ZoneId, List<Integer>> placements = new HashMap<>();
        for (int z = 0; z < zones; z++)
        {
            final ZoneId zone = new ZoneId(0xF00D, z);
            placements.put(zone, owner.owner.openZone(zone));
            long last = -1;
            for (int i = 0; i < 500; i++)
            {
                last = owner.owner.append(zone, i, i, BackupStoreTest.payload(z * 1000 + i, 0, 40));
            }
            owner.owner.delete(zone, 0, 0);
            last++;
            owner.owner.flush(zone);
            assertThat(owner.owner.awaitPersisted(zone, last, TimeUnit.SECONDS.toNanos(60))).isTrue();
        }
        owner.service.close();
        final long startNs = System.nanoTime();
        for (final Node node : others)
        {
            node.membership.leave(1);
        }
        assertThat(done.await(60, TimeUnit.SECONDS)).isTrue();
        final long elapsedMs = (System.nanoTime() - startNs) / 1_000_000;
        System.out.println("durable-log failover: " + zones + " zones recovered in parallel in " + elapsedMs + " ms");
        int total = 0;
        for (final var entry : placements.entrySet())
        {
            final ZoneId zone = entry.getKey();
            final int expectedRestorer = entry.getValue().get(0);
            final Recovered r = recovered.get(expectedRestorer);
            assertThat(r.recoveredBy).containsEntry(zone, expectedRestorer);
            assertThat(r.newBackups.get(zone)).hasSize(3).doesNotContain(1, expectedRestorer);
            for (int i = 1; i < 500; i++)
            {
                assertThat(r.entries.get(zone.zoneIndex() + ":" + Collected.key(i, i)))
                    .isEqualTo(BackupStoreTest.payload(zone.zoneIndex() * 1000 + i, 0, 40));
            }
            assertThat(r.entries).doesNotContainKey(zone.zoneIndex() + ":" + Collected.key(0, 0));
            total += 499;
        }
        int delivered = 0;
        for (final Recovered r : recovered.values())
        {
            delivered += r.entries.size();
        }
        assertThat(delivered).isEqualTo(total);
        // The restorer re-replicated as the new owner: its new backups acknowledge everything.
        for (final var entry : placements.entrySet())
        {
            final int restorer = entry.getValue().get(0);
            final Node node = others.stream().filter(n -> n.id == restorer).findFirst().orElseThrow();
            assertThat(node.owner.awaitPersisted(entry.getKey(), 498, TimeUnit.SECONDS.toNanos(60))).isTrue();
        }
    }

    @Test
    @Timeout(120)
    void aRestartedBackupStillTakesOverItsZonesWhenTheOwnerFails() throws Exception
    {
        final List<Integer> all = List.of(1, 2, 3, 4);
        final CountDownLatch done = new CountDownLatch(1);
        final Node owner = new Node(1, all, new Recovered(1, done));
        final Map<Integer, Node> backups = new HashMap<>();
        final Map<Integer, Recovered> listeners = new HashMap<>();
        for (final int id : List.of(2, 3, 4))
        {
            listeners.put(id, new Recovered(id, done));
            backups.put(id, new Node(id, all, listeners.get(id)));
        }
        final ZoneId zone = new ZoneId(0xAB, 0);
        final int first = owner.owner.openZone(zone).get(0);
        long last = -1;
        for (int i = 0; i < 800; i++)
        {
            last = owner.owner.append(zone, i, i, BackupStoreTest.payload(i, 0, 60));
        }
        owner.owner.flush(zone);
        assertThat(owner.owner.awaitPersisted(zone, last, TimeUnit.SECONDS.toNanos(60))).isTrue();
        // The first backup restarts: same node id, same store directory, fresh process state.
        final Node old = backups.get(first);
        old.backup.close();
        old.service.close();
        final Recovered restartedListener = new Recovered(first, done);
        final Node restarted = new Node(first, all, restartedListener);
        assertThat(restarted.backup.store().zones()).contains(zone);
        owner.service.close();
        restarted.membership.leave(1);
        for (final Node node : backups.values())
        {
            if (node != old)
            {
                node.membership.leave(1);
            }
        }
        assertThat(done.await(60, TimeUnit.SECONDS)).isTrue();
        assertThat(restartedListener.recoveredBy).containsEntry(zone, first);
        assertThat(restartedListener.entries).hasSize(800);
        for (int i = 0; i < 800; i++)
        {
            assertThat(restartedListener.entries.get("0:" + Collected.key(i, i))).isEqualTo(BackupStoreTest.payload(i, 0, 60));
        }
    }
}
