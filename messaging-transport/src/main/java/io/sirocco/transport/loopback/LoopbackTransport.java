package io.sirocco.transport.loopback;

import io.sirocco.transport.NodeUnreachableException;
import io.sirocco.transport.TransportContext;
import io.sirocco.transport.spi.IncomingBuffer;
import io.sirocco.transport.orb.OutgoingRingBuffer;
import io.sirocco.transport.spi.Connection;
import io.sirocco.transport.spi.Transport;
import io.sirocco.transport.spi.TransportEnvironment;

/**
 * The in-process transport: no sockets and no thread of its own. Whoever signals data (the sending thread) takes
 * the ring's consumer lock, copies the committed bytes straight into pooled receive buffers of the peer node and
 * pushes them to the peer's incoming buffer queue; a thread that finds the lock taken leaves the work to its
 * holder, who re-checks the ring after unlocking (so no commit is stranded). Credits go back by a direct call.
 */
public final class LoopbackTransport implements Transport
{
    private final LoopbackFabric fabric;
    private TransportEnvironment environment;
    private volatile boolean running;

    LoopbackTransport(final TransportContext context)
    {
        this.fabric = context.loopbackFabric() == null
            ? LoopbackFabric.shared() : (LoopbackFabric)context.loopbackFabric();
    }

    /** One direction of a loopback connection: the peer transport and the peer's connection object for us. */
    private record Link(LoopbackTransport peer, Connection connection)
    {
    }

    @Override
    public String name()
    {
        return "loopback";
    }

    @Override
    public void start(final TransportEnvironment environment)
    {
        this.environment = environment;
        running = true;
        fabric.register(environment.ownNodeId(), this);
    }

    @Override
    public void connect(final Connection connection, final long timeoutNs)
    {
        if (!(fabric.lookup(connection.nodeId()) instanceof LoopbackTransport peer) || !peer.running)
        {
            throw new NodeUnreachableException(connection.nodeId(), "no running loopback node " + connection.nodeId());
        }
        final Connection peerConnection = peer.environment.acceptIncoming(environment.ownNodeId());
        peerConnection.incomingAttachment(new Link(this, connection));
        peerConnection.peerDescription("loopback");
        connection.peerDescription("loopback");
        connection.outgoingAttachment(new Link(peer, peerConnection));
    }

    @Override
    public void signal(final Connection connection, final int what)
    {
        if ((what & DATA) != 0)
        {
            drain(connection);
        }
        if ((what & CREDITS) != 0 && connection.incomingAttachment() instanceof Link link)
        {
            final int credits = connection.flowControl().takeCredits();
            if (credits > 0)
            {
                link.connection().flowControl().onCredits(credits);
            }
        }
    }

    private void drain(final Connection connection)
    {
        if (!(connection.outgoingAttachment() instanceof Link link))
        {
            return;
        }
        final OutgoingRingBuffer ring = connection.outgoingRingBuffer();
        do
        {
            if (!ring.tryLockConsumer())
            {
                return; // the holder drains what we committed
            }
            try
            {
                while (ring.readableBytes() > 0)
                {
                    if (!link.peer().running || link.connection().isClosed())
                    {
                        ring.consumed(ring.readableBytes());
                        environment.endOfStream(connection, "loopback node " + connection.nodeId() + " stopped");
                        return;
                    }
                    final IncomingBuffer buffer = link.peer().environment.bufferPool().acquire();
                    final int copied = ring.copyTo(buffer.segment(), 0, buffer.capacity());
                    ring.consumed(copied);
                    link.peer().environment.pushIncoming(buffer.connection(link.connection()).length(copied));
                }
            }
            finally
            {
                ring.unlockConsumer();
            }
        }
        while (ring.readableBytes() > 0);
    }

    @Override
    public void close(final Connection connection)
    {
        final String reason = "node " + environment.ownNodeId() + " closed the connection";
        if (connection.outgoingAttachment() instanceof Link out)
        {
            connection.outgoingAttachment(null);
            if (out.peer().running)
            {
                out.peer().environment.endOfStream(out.connection(), reason);
            }
        }
        if (connection.incomingAttachment() instanceof Link in)
        {
            connection.incomingAttachment(null);
            if (in.peer().running)
            {
                in.peer().environment.endOfStream(in.connection(), reason);
            }
        }
    }

    @Override
    public void shutdown()
    {
        running = false;
        fabric.unregister(environment.ownNodeId(), this);
    }
}
