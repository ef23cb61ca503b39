package io.sirocco.tests.log;

import io.sirocco.log.membership.Membership;
import io.sirocco.log.replication.ReplicationMessages;
import io.sirocco.tests.FreePorts;
import io.sirocco.transport.MessagingService;
import io.sirocco.transport.TransportContext;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What every log node starts with, in a child process (owner or backup) or in a kill test's own JVM: a nio messaging
 * node with the replication messages registered, the peers (on loopback) in its address map and in its membership.
 */
final class ChildReplicationNode
{
    private ChildReplicationNode()
    {
    }

    /**
     * @param peers      the command line; {@code peers[firstPeer..]} are {@code id:port} entries.
     * @param membership joined by every listed peer.
     */
    static MessagingService start(final int ownId, final String[] peers, final int firstPeer,
        final Membership membership)
    {
        final TransportContext context = new TransportContext().ownNodeId(ownId).transport("nio");
        for (int a = firstPeer; a < peers.length; a++)
        {
            final String[] parts = peers[a].split(":");
            final int id = Integer.parseInt(parts[0]);
            context.addressMap().put(id, "127.0.0.1", Integer.parseInt(parts[1]));
            membership.join(id);
        }
        return startWith(context);
    }

    /**
     * The same node in a test's own JVM: every member of {@code ids} on loopback at its port, joined in that order.
     *
     * @param ports the port of every member of {@code ids} ({@link #freePorts}).
     */
    static MessagingService start(final int ownId, final List<Integer> ids, final Map<Integer, Integer> ports,
        final Membership membership)
    {
        final TransportContext context = new TransportContext().ownNodeId(ownId).transport("nio");
        for (final int id : ids)
        {
            context.addressMap().put(id, "127.0.0.1", ports.get(id));
            membership.join(id);
        }
        return startWith(context);
    }

    /** A port below the ephemeral range for each of {@code ids} ({@link FreePorts}: a child may bind it later). */
    static Map<Integer, Integer> freePorts(final List<Integer> ids)
    {
        final Map<Integer, Integer> ports = new ConcurrentHashMap<>();
        for (final int id : ids)
        {
            ports.put(id, FreePorts.next());
        }
        return ports;
    }

    private static MessagingService startWith(final TransportContext context)
    {
        final MessagingService service = MessagingService.start(context);
        ReplicationMessages.registerTypes(service);
        return service;
    }
}
