package io.sirocco.tests.log;

import io.sirocco.log.membership.Membership;
import io.sirocco.log.replication.ReplicationMessages;
import io.sirocco.transport.MessagingService;
import io.sirocco.transport.TransportContext;

/**
 * What every log child process (owner or backup) starts with: a nio messaging node with the replication messages
 * registered, the peers given on its command line as {@code id:port} (on loopback) in its address map and in its
 * membership.
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
        final MessagingService service = MessagingService.start(context);
        ReplicationMessages.registerTypes(service);
        return service;
    }
}
