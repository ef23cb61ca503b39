package io.sirocco.tests.log;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.sirocco.log.BackupStore;
import io.sirocco.log.config.LogConfig;
import io.sirocco.log.config.SyncPolicy;
import io.sirocco.log.zone.ZoneId;
import io.sirocco.log.membership.Membership;
import io.sirocco.log.recovery.RecoveryConsumer;
import io.sirocco.log.recovery.RecoveryReport;
import io.sirocco.log.replication.ReplicationOwner;
import io.sirocco.log.replication.ZoneSource;
import io.sirocco.log.zone.RandomPlacement;
import io.sirocco.tests.Closer;
import io.sirocco.transport.MessagingService;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Four backup members run in their own processes; the owner (this JVM) replicates one zone over TCP (nio) to three
 * of them, with overwrites and deletes. One of the three is SIGKILLed mid-write. The owner sees the connection drop
 * (standing in for the membership layer's failure detector), re-replicates the zone from its own copy to the fourth
 * member and keeps writing. At the end the zone has three backups again, all of them acknowledge the last entry, and
 * each of them (stopped cleanly, its store reopened here) recovers exactly the owner's live entries, byte-exact.
 */
class BackupKillTest
{
    private static final int OWNER = 1;

    @TempDir
    Path dir;

    @RegisterExtension
    final Closer closeables = new Closer();

    /** The owner's copy of its zone, updated before each append or delete. */
    private static final class Model implements ZoneSource
    {
        final Map<Long, byte[]> live = new ConcurrentHashMap<>();

        @Override
        public void forEachLive(final ZoneId zone, final EntrySink sink)
        {
            live.forEach((key, payload) -> sink.onEntry(key, key, ByteBuffer.wrap(payload), 0, payload.length));
        }
    }

    @Test
    @Timeout(240)
    void killingOneOfThreeBackupsMidWriteRestoresThreeCompleteCopies() throws Exception
    {
        final List<Integer> ids = List.of(OWNER, 2, 3, 4, 5);
        final Map<Integer, Integer> ports = ChildReplicationNode.freePorts(ids);
        final List<String> addresses = new ArrayList<>();
        ports.forEach((node, port) -> addresses.add(node + ":" + port));
        try (Children children = new Children())
        {
            final Map<Integer, Children.Child> backups = new ConcurrentHashMap<>();
            for (final int id : ids.subList(1, ids.size()))
            {
                final List<String> args = new ArrayList<>(List.of(Integer.toString(id),
                    dir.resolve("backup-" + id).toString()));
                args.addAll(addresses);
                backups.put(id, children.start(LogBackupMain.class, args.toArray(String[]::new)));
            }
            for (final Children.Child child : backups.values())
            {
                assertThat(child.await(lines -> lines.contains("READY"), 120)).as("backup started").isTrue();
            }
            final Membership membership = new Membership();
            final MessagingService service = closeables.add(
                ChildReplicationNode.start(OWNER, ids, ports, membership));
            final Model model = new Model();
            final ReplicationOwner owner = new ReplicationOwner(service, membership, new RandomPlacement(), 3,
                16 * 1024, null).zoneSource(model);
            final ZoneId zone = new ZoneId(0xB0B, 0);
            final List<Integer> placement = owner.openZone(zone);
            assertThat(placement).hasSize(3).doesNotContain(OWNER);
            final int victim = placement.get(1);
            final TreeSet<Integer> spare = new TreeSet<>(ids.subList(1, ids.size()));
            spare.removeAll(placement);
            service.addConnectionListener((node, reason) ->
            {
                if (node == victim)
                {
                    Thread.ofPlatform().start(() -> membership.leave(victim));
                }
            });
            long last = -1;
            final int writes = 20_000;
            for (int i = 0; i < writes; i++)
            {
                if (i == writes / 3)
                {
                    owner.flush(zone);
                    backups.get(victim).process.destroyForcibly(); // SIGKILL mid-write
                }
                if (i == 2 * writes / 3)
                {
                    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
                    while (owner.backups(zone).contains(victim) && System.nanoTime() - deadline < 0)
                    {
                        Thread.sleep(5); // wait for the event (the loss is seen) so writes follow the repair
                    }
                    assertThat(owner.backups(zone)).as("victim detected").doesNotContain(victim);
                }
                final long key = i % 3000;
                if (i % 13 == 12)
                {
                    model.live.remove(key);
                    last = owner.delete(zone, key, key);
                }
                else
                {
                    final byte[] payload = Payloads.of(i);
                    model.live.put(key, payload);
                    last = owner.append(zone, key, key, payload);
                }
            }
            owner.flush(zone);
            final List<Integer> now = owner.backups(zone);
            assertThat(now).hasSize(3).doesNotContain(victim).contains(spare.first());
            assertThat(owner.awaitPersisted(zone, last, TimeUnit.SECONDS.toNanos(120)))
                .as("all 3 backups, the new one included, acknowledge the last entry").isTrue();
            for (final int backup : now)
            {
                final Children.Child child = backups.get(backup);
                child.process.getOutputStream().write("STOP\n".getBytes(StandardCharsets.US_ASCII));
                child.process.getOutputStream().flush();
                assertThat(child.await(lines -> lines.contains("CLOSED"), 120)).as("backup %d stopped", backup)
                    .isTrue();
                assertThat(child.process.waitFor(60, TimeUnit.SECONDS)).isTrue();
                final Map<Long, byte[]> recovered = new ConcurrentHashMap<>();
                final RecoveryReport[] report = new RecoveryReport[1];
                try (BackupStore store = BackupStore.open(dir.resolve("backup-" + backup),
                    new LogConfig().syncPolicy(SyncPolicy.GROUP).segmentSizeBytes(1 << 20), null))
                {
                    store.recover(zone, new RecoveryConsumer()
                    {
                        @Override
                        public void onEntry(final ZoneId id, final long keyHash, final long sequence, final int epoch,
                            final int version, final ByteBuffer buffer, final int offset, final int length)
                        {
                            final byte[] copy = new byte[length];
                            buffer.get(offset, copy);
                            recovered.put(keyHash, copy);
                        }

                        @Override
                        public void onComplete(final RecoveryReport r)
                        {
                            report[0] = r;
                        }
                    });
                }
                assertThat(report[0].damages()).as("backup %d", backup).isEmpty();
                assertThat(recovered.keySet()).as("backup %d", backup)
                    .containsExactlyInAnyOrderElementsOf(model.live.keySet());
                for (final Map.Entry<Long, byte[]> e : model.live.entrySet())
                {
                    assertThat(recovered.get(e.getKey())).as("backup %d key %d", backup, e.getKey())
                        .isEqualTo(e.getValue());
                }
            }
        }
    }
}
