package io.sirocco.pubsub.rtps;

import io.sirocco.pubsub.rtps.wire.DataView;
import io.sirocco.pubsub.rtps.wire.ReceiveContext;

/**
 * Told of each new sample a user reader received, on the RTPS agent's thread: the view is valid only during the
 * call (copy what you keep) and the listener must not block.
 */
@FunctionalInterface
public interface SampleListener
{
    void onSample(ReceiveContext context, DataView data);
}
