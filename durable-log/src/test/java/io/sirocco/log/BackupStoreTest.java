package io.sirocco.log;

import io.sirocco.log.config.LogConfig;
import io.sirocco.log.config.SyncPolicy;
import io.sirocco.log.zone.ZoneId;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BackupStoreTest
{
    @TempDir
    Path dir;

    static LogConfig small(final SyncPolicy policy)
    {
        return new LogConfig().segmentSizeBytes(64 * 1024).secondaryLogSegments(64).writeBufferBytes(64 * 1024)
            .directThresholdBytes(4096).primaryLogSizeBytes(256 * 1024).versionBufferSlots(256)
            .flushIntervalNs(5_000_000).syncPolicy(policy).recoveryThreads(2);
    }

    static byte[] payload(final long key, final int version, final int length)
    {
        final byte[] bytes = new byte[length];
        final byte[] text = (key + ":" + version + ":").getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < length; i++)
        {
            bytes[i] = i < text.length ? text[i] : (byte)(key * 31 + version * 7 + i);
        }
        return bytes;
    }

    @Test
    void recoversEveryEntryOfEveryZoneInSequenceOrder()
    {
        final ZoneId a = new ZoneId(7, 0);
        final ZoneId b = new ZoneId(7, 1);
        try (BackupStore store = BackupStore.open(dir, small(SyncPolicy.GROUP), null))
        {
            final ZoneHandle za = store.createZone(a);
            final ZoneHandle zb = store.createZone(b);
            for (int i = 0; i < 5000; i++)
            {
                store.append(i % 3 == 0 ? zb : za, i, i * 11L, i, payload(i, 0, 20 + i % 300));
            }
            store.flush();
            final Collected ca = new Collected();
            store.recover(a, ca);
            final Collected cb = new Collected();
            store.recover(b, cb);
            assertThat(ca.entries.size() + cb.entries.size()).isEqualTo(5000);
            assertThat(ca.report.damages()).isEmpty();
            assertThat(ca.sequences).isSorted();
            for (int i = 0; i < 5000; i++)
            {
                final Collected c = i % 3 == 0 ? cb : ca;
                assertThat(c.entries.get(Collected.key(i * 11L, i))).isEqualTo(payload(i, 0, 20 + i % 300));
            }
        }
    }

    @Test
    void groupAcknowledgesOnlyAfterSyncAndColdStartReplaysThePrimaryLog()
    {
        final ZoneId zone = new ZoneId(1, 0);
        final List<Long> acked = new ArrayList<>();
        try (BackupStore store = BackupStore.open(dir, small(SyncPolicy.GROUP),
            (z, ticket) -> acked.add(ticket)))
        {
            final ZoneHandle handle = store.createZone(zone);
            for (int i = 0; i < 100; i++)
            {
                store.append(handle, i, 5, i, payload(i, 0, 40));
            }
            assertThat(store.awaitPersisted(handle, 99, 30_000_000_000L)).isTrue();
        }
        assertThat(acked).isSorted().contains(99L);
        try (BackupStore store = BackupStore.open(dir, small(SyncPolicy.GROUP), null))
        {
            final Collected c = new Collected();
            store.recover(zone, c);
            assertThat(c.entries).hasSize(100);
            assertThat(c.report.damages()).isEmpty();
        }
    }

    @Test
    void overwritesKeepTheNewestAndDeletesStayDeletedAcrossRestart()
    {
        final ZoneId zone = new ZoneId(3, 0);
        try (BackupStore store = BackupStore.open(dir, small(SyncPolicy.NONE), null))
        {
            final ZoneHandle handle = store.createZone(zone);
            long ticket = 0;
            for (int round = 0; round < 20; round++)
            {
                for (int key = 0; key < 200; key++)
                {
                    store.append(handle, ticket++, key, 0, payload(key, round, 30 + round));
                }
            }
            for (int key = 0; key < 200; key += 2)
            {
                store.delete(handle, ticket++, key, 0);
            }
        }
        try (BackupStore store = BackupStore.open(dir, small(SyncPolicy.NONE), null))
        {
            final Collected c = new Collected();
            store.recover(zone, c);
            assertThat(c.entries).hasSize(100);
            for (int key = 1; key < 200; key += 2)
            {
                assertThat(c.entries.get(Collected.key(key, 0))).isEqualTo(payload(key, 19, 49));
            }
            assertThat(c.report.damages()).isEmpty();
        }
    }

    @Test
    void eachPolicyReturnsOnlyWhenPersisted()
    {
        try (BackupStore store = BackupStore.open(dir, small(SyncPolicy.EACH), null))
        {
            final ZoneHandle handle = store.createZone(new ZoneId(9, 0));
            for (int i = 0; i < 20; i++)
            {
                store.append(handle, i, i, i, payload(i, 0, 10));
                assertThat(handle.persistedTicket()).isGreaterThanOrEqualTo(i);
            }
        }
    }

    @Test
    void rejectsOversizedEntriesWithTheLimit()
    {
        try (BackupStore store = BackupStore.open(dir, small(SyncPolicy.NONE), null))
        {
            final ZoneHandle handle = store.createZone(new ZoneId(9, 0));
            assertThatThrownBy(() -> store.append(handle, 0, 1, 1, new byte[40_000]))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("exceeds the maximum");
        }
    }
}
