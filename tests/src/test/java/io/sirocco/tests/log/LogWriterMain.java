package io.sirocco.tests.log;

import java.nio.file.Path;

import io.sirocco.log.BackupStore;
import io.sirocco.log.config.LogConfig;
import io.sirocco.log.config.SyncPolicy;
import io.sirocco.log.ZoneHandle;
import io.sirocco.log.zone.ZoneId;

/**
 * A backup store in its own process for the crash tests:
 * {@code LogWriterMain <dir> <policy> <entries> <zones> <segmentBytes> <hold|exit>}. Entry i goes to zone i % zones
 * with ticket i / zones, keyHash i and sequence i, payload {@link Payloads#of(long)}. Prints {@code ACK <zone>
 * <ticket>} whenever a zone's acknowledged ticket advances, {@code DONE} at the end, then exits or waits to be
 * killed.
 */
public final class LogWriterMain
{
    private LogWriterMain()
    {
    }

    static LogConfig config(final SyncPolicy policy, final int segmentBytes)
    {
        return new LogConfig().syncPolicy(policy).segmentSizeBytes(segmentBytes).secondaryLogSegments(4096)
            .writeBufferBytes(256 * 1024).directThresholdBytes(16 * 1024).primaryLogSizeBytes(4 << 20)
            .versionBufferSlots(4096).flushIntervalNs(2_000_000).cleanerEnabled(false);
    }

    public static void main(final String[] args)
    {
        final Path dir = Path.of(args[0]);
        final SyncPolicy policy = SyncPolicy.parse(args[1]);
        final long entries = Long.parseLong(args[2]);
        final int zones = Integer.parseInt(args[3]);
        final int segmentBytes = Integer.parseInt(args[4]);
        final boolean hold = args[5].equals("hold");
        final BackupStore store = BackupStore.open(dir, config(policy, segmentBytes), null);
        final ZoneHandle[] handles = new ZoneHandle[zones];
        final long[] printed = new long[zones];
        for (int z = 0; z < zones; z++)
        {
            handles[z] = store.createZone(new ZoneId(0xC0FFEE, z));
            printed[z] = -1;
        }
        for (long i = 0; i < entries; i++)
        {
            store.append(handles[(int)(i % zones)], i / zones, i, i, Payloads.of(i));
            if (i % 64 == 0)
            {
                printAcks(handles, printed);
            }
        }
        store.flush();
        printAcks(handles, printed);
        System.out.println("DONE");
        System.out.flush();
        if (hold)
        {
            while (true)
            {
                try
                {
                    Thread.sleep(60_000);
                }
                catch (final InterruptedException ex)
                {
                    return;
                }
            }
        }
        store.close();
    }

    private static void printAcks(final ZoneHandle[] handles, final long[] printed)
    {
        boolean any = false;
        for (int z = 0; z < handles.length; z++)
        {
            final long ticket = handles[z].persistedTicket();
            if (ticket > printed[z])
            {
                printed[z] = ticket;
                System.out.println("ACK " + z + " " + ticket);
                any = true;
            }
        }
        if (any)
        {
            System.out.flush();
        }
    }
}
