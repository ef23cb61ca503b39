package io.sirocco.pubsub.rtps.reliability;

import io.sirocco.pubsub.rtps.wire.DataView;
import io.sirocco.pubsub.rtps.wire.ReceiveContext;

/**
 * Told of each sample a {@link WriterProxy} delivers, in the writer's sequence order, on the RTPS agent's thread.
 * The views are valid only during the call (a held sample's copy is reused afterwards).
 */
@FunctionalInterface
public interface InOrderListener
{
    void onSample(ReceiveContext context, DataView data);
}
