package io.sirocco.tests.log;

import java.util.concurrent.TimeUnit;

import io.sirocco.log.zone.ZoneId;
import io.sirocco.log.membership.Membership;
import io.sirocco.log.replication.ReplicationOwner;
import io.sirocco.log.zone.RandomPlacement;
import io.sirocco.transport.MessagingService;

/**
 * A zone owner in its own process: {@code LogOwnerMain <ownId> <zones> <entriesPerZone> <id:port>...}. Opens the
 * zones on backups placed from the given members, replicates the entries (entry i of zone z: keyHash i,
 * sequence i, payload {@link Payloads#of} of {@code z * 1_000_000 + i}), waits until every zone is persisted on
 * all its backups, prints {@code READY}, then waits to be killed.
 */
public final class LogOwnerMain
{
    private LogOwnerMain()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final int ownId = Integer.parseInt(args[0]);
        final int zones = Integer.parseInt(args[1]);
        final int entries = Integer.parseInt(args[2]);
        final Membership membership = new Membership();
        final MessagingService service = ChildReplicationNode.start(ownId, args, 3, membership);
        final ReplicationOwner owner = new ReplicationOwner(service, membership, new RandomPlacement(), 3, 64 * 1024,
            null);
        for (int z = 0; z < zones; z++)
        {
            final ZoneId zone = new ZoneId(0xBEEF, z);
            System.out.println("ZONE " + z + " " + owner.openZone(zone));
            for (int i = 0; i < entries; i++)
            {
                owner.append(zone, i, i, Payloads.of(z * 1_000_000L + i));
            }
            owner.flush(zone);
        }
        for (int z = 0; z < zones; z++)
        {
            if (!owner.awaitPersisted(new ZoneId(0xBEEF, z), entries - 1, TimeUnit.SECONDS.toNanos(120)))
            {
                System.out.println("TIMEOUT " + z);
                System.exit(2);
            }
        }
        System.out.println("READY");
        System.out.flush();
        Thread.currentThread().join();
    }
}
