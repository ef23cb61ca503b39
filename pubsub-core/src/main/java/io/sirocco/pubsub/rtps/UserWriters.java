package io.sirocco.pubsub.rtps;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.sirocco.pubsub.rtps.discovery.GuidPrefix;
import io.sirocco.pubsub.rtps.wire.AckNackView;
import io.sirocco.pubsub.rtps.wire.ReceiveContext;

/**
 * This participant's user writers as the RTPS agent sees them: ACKNACKs go to the writer they name, and every
 * {@link RtpsUserWriter#HEARTBEAT_PERIOD_NS} each writer heartbeats the readers that have not acknowledged everything.
 *
 * <p>Threads: writers are added from any thread (a copy-on-write list, read by the agent without locks).
 */
final class UserWriters
{
    private final List<RtpsUserWriter> writers = new CopyOnWriteArrayList<>();
    private long nextHeartbeatNs = System.nanoTime();

    void add(final RtpsUserWriter writer)
    {
        writers.add(writer);
    }

    void onAckNack(final ReceiveContext context, final AckNackView ackNack)
    {
        for (final RtpsUserWriter w : writers)
        {
            if (w.endpoint().entityId() == ackNack.writerId())
            {
                w.onAckNack(new GuidPrefix(context.sourcePrefixHigh(), context.sourcePrefixLow()), ackNack);
                return;
            }
        }
    }

    /** Heartbeats when the period is over; returns 1 when it did, for the agent's work count. */
    int heartbeat(final long nowNs)
    {
        if (nowNs - nextHeartbeatNs < 0)
        {
            return 0;
        }
        nextHeartbeatNs = nowNs + RtpsUserWriter.HEARTBEAT_PERIOD_NS;
        for (final RtpsUserWriter w : writers)
        {
            w.heartbeat();
        }
        return 1;
    }
}
