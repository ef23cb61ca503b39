package io.sirocco.transport;

/**
 * Receives the messages of one (type, subtype) without creating message objects: the payload is read in place
 * through {@link InboundFrame#importer()}. This is the allocation-free receive path. The frame is a flyweight valid
 * only during the call. Threading is as for {@link MessageHandler}.
 */
@FunctionalInterface
public interface RawMessageHandler
{
    void onMessage(InboundFrame frame);
}
