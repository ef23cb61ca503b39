package io.sirocco.ib.msg;

import io.sirocco.transport.spi.Connection;

/**
 * One direction of a messaging connection over one RC queue pair. The outgoing channel carries the connection's
 * ring data (copied into its registered staging slots, one SEND_WITH_IMM per slot); the incoming channel receives
 * that data into the shared receive queue and sends credit-only messages back. Credits for the reverse direction
 * ride on every message's immediate data.
 *
 * <p>All counters are confined to the transport's poller thread; {@code open} is written once by the thread that set
 * the channel up, before it is published through the connection's attachment (a volatile field).
 */
final class IbChannel
{
    /** Set once: at creation (outgoing) or when the core accepted the peer (incoming), before publication. */
    Connection connection;
    final MessagingVerbs.Qp qp;
    final boolean outgoing;
    final int slotBytes;
    final int slots;
    final int sendQueueDepth;
    long slotsPosted;
    long slotsCompleted;
    int sendQueueOutstanding;
    boolean failed;

    IbChannel(final Connection connection, final MessagingVerbs.Qp qp, final boolean outgoing, final int slotBytes,
        final int slots, final int sendQueueDepth)
    {
        this.connection = connection;
        this.qp = qp;
        this.outgoing = outgoing;
        this.slotBytes = slotBytes;
        this.slots = slots;
        this.sendQueueDepth = sendQueueDepth;
    }

    boolean hasFreeSlot()
    {
        return slotsPosted - slotsCompleted < slots && sendQueueOutstanding < sendQueueDepth;
    }

    boolean hasSendQueueRoom()
    {
        return sendQueueOutstanding < sendQueueDepth;
    }
}
