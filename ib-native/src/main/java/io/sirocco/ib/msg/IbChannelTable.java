package io.sirocco.ib.msg;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;

import io.sirocco.transport.spi.Connection;

/**
 * The IB transport's channels: each node's connection, each node's accepted incoming channel (data from a node is
 * delivered once it is set), and the retired channels whose queue pairs are destroyed at shutdown (when no
 * completion can still name them). Creates channels with the transport's slot and depth settings.
 *
 * <p>Thread-safe: the per-node tables are atomic arrays (the acceptor and connecting threads write them, the poller
 * reads them); the retired list is guarded by its own monitor.
 */
final class IbChannelTable
{
    static final int MAX_NODES = 1 << 16;
    private static final int CREDIT_SEND_ROOM = 16;

    final AtomicReferenceArray<Connection> byNode = new AtomicReferenceArray<>(MAX_NODES);
    /** Incoming channels whose connection the core has accepted: data from node n is delivered once this is set. */
    final AtomicReferenceArray<IbChannel> incomingByNode = new AtomicReferenceArray<>(MAX_NODES);
    private final List<IbChannel> retired = new ArrayList<>();
    private final MessagingVerbs verbs;
    private final int sendSlots;
    private final int maxSendWr;
    private int receiveBytes;

    IbChannelTable(final MessagingVerbs verbs, final int sendSlots, final int maxSendWr)
    {
        this.verbs = verbs;
        this.sendSlots = sendSlots;
        this.maxSendWr = maxSendWr;
    }

    /** Set once at start, before any channel is created. */
    void receiveBytes(final int bytes)
    {
        receiveBytes = bytes;
    }

    IbChannel newChannel(final Connection connection, final boolean outgoing)
    {
        final MessagingVerbs.Qp qp = verbs.createQp(outgoing ? sendSlots * receiveBytes : 0);
        return new IbChannel(connection, qp, outgoing, receiveBytes, sendSlots, channelSendDepth());
    }

    /** Sends a channel may have outstanding: its data slots plus room for credit-only messages. */
    int channelSendDepth()
    {
        return Math.min(maxSendWr, sendSlots + CREDIT_SEND_ROOM);
    }

    /** Moves the QP to error now; it is destroyed at shutdown, when no completion can still name it. */
    void retire(final IbChannel channel)
    {
        verbs.toError(channel.qp);
        synchronized (retired)
        {
            if (!retired.contains(channel))
            {
                retired.add(channel);
            }
        }
    }

    /** Shutdown: destroys the retired queue pairs. */
    void destroyRetired()
    {
        synchronized (retired)
        {
            retired.forEach(channel -> verbs.destroy(channel.qp));
            retired.clear();
        }
    }
}
