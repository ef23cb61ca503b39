package io.sirocco.tests.log;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import io.sirocco.log.config.LogConfig;
import io.sirocco.log.config.SyncPolicy;
import io.sirocco.log.zone.ZoneId;
import io.sirocco.log.membership.Membership;
import io.sirocco.log.recovery.RecoveryConsumer;
import io.sirocco.log.recovery.RecoveryReport;
import io.sirocco.log.replication.FailoverListener;
import io.sirocco.log.replication.ReplicationBackup;
import io.sirocco.log.zone.RandomPlacement;
import io.sirocco.transport.MessagingService;

/**
 * A backup member in its own process: {@code LogBackupMain <ownId> <storeDirectory> <id:port>...}. Logs the zones
 * its owners replicate to it under {@code group}, prints {@code READY}, and on a {@code STOP} line on stdin closes
 * its store cleanly, prints {@code CLOSED} and exits (or is SIGKILLed by the test).
 */
public final class LogBackupMain
{
    private LogBackupMain()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final int ownId = Integer.parseInt(args[0]);
        final Membership membership = new Membership();
        final MessagingService service = ChildReplicationNode.start(ownId, args, 2, membership);
        final FailoverListener noFailover = new FailoverListener()
        {
            @Override
            public RecoveryConsumer consumerFor(final ZoneId zone, final int failedOwner)
            {
                return (z, keyHash, sequence, epoch, version, buffer, offset, length) -> { };
            }

            @Override
            public void onZoneRecovered(final ZoneId zone, final int failedOwner, final RecoveryReport report,
                final java.util.List<Integer> newBackups)
            {
            }
        };
        final ReplicationBackup backup = new ReplicationBackup(service, Path.of(args[1]),
            new LogConfig().syncPolicy(SyncPolicy.GROUP).segmentSizeBytes(1 << 20).replicationFactor(3), membership,
            new RandomPlacement(), null, noFailover);
        System.out.println("READY");
        System.out.flush();
        final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        String line;
        while ((line = in.readLine()) != null && !"STOP".equals(line))
        {
            // wait for STOP
        }
        backup.close();
        service.close();
        System.out.println("CLOSED");
        System.out.flush();
        System.exit(0);
    }
}
