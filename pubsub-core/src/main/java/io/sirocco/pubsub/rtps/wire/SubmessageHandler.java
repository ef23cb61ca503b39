package io.sirocco.pubsub.rtps.wire;

/**
 * Receives the valid submessages of a datagram from {@link RtpsMessageReader}, in order, on the receive loop's
 * thread. The views and the context are reused: valid only during the call, never to be kept. A handler must not
 * throw; the receive loop counts and logs what one throws, and drops the rest of that datagram.
 */
public interface SubmessageHandler
{
    default void onData(final ReceiveContext context, final DataView data)
    {
    }

    default void onDataFrag(final ReceiveContext context, final DataFragView fragment)
    {
    }

    /** HEARTBEAT and HEARTBEAT_FRAG ({@link HeartbeatView#isFragment()}). */
    default void onHeartbeat(final ReceiveContext context, final HeartbeatView heartbeat)
    {
    }

    /** ACKNACK and NACK_FRAG ({@link AckNackView#isFragment()}). */
    default void onAckNack(final ReceiveContext context, final AckNackView ackNack)
    {
    }

    default void onGap(final ReceiveContext context, final GapView gap)
    {
    }
}
