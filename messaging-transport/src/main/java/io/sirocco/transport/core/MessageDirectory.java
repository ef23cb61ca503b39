package io.sirocco.transport.core;

import io.sirocco.transport.Message;
import io.sirocco.transport.MessageHandler;
import io.sirocco.transport.MessageTypes;
import io.sirocco.transport.RawMessageHandler;

import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;

/**
 * Factories and handlers by (type, subtype). Registration may happen at any time from any thread; lookups are
 * volatile array reads on the receive path.
 */
final class MessageDirectory
{
    private final AtomicReferenceArray<Supplier<? extends Message>> factories = new AtomicReferenceArray<>(1 << 16);
    private final AtomicReferenceArray<MessageHandler<? extends Message>> handlers = new AtomicReferenceArray<>(1 << 16);
    private final AtomicReferenceArray<RawMessageHandler> rawHandlers = new AtomicReferenceArray<>(1 << 16);

    void registerFactory(final int type, final int subtype, final Supplier<? extends Message> factory)
    {
        factories.set(MessageTypes.key(type, subtype), factory);
    }

    void registerHandler(final int type, final int subtype, final MessageHandler<? extends Message> handler)
    {
        handlers.set(MessageTypes.key(type, subtype), handler);
    }

    void registerRawHandler(final int type, final int subtype, final RawMessageHandler handler)
    {
        rawHandlers.set(MessageTypes.key(type, subtype), handler);
    }

    Supplier<? extends Message> factory(final int key)
    {
        return factories.get(key);
    }

    MessageHandler<? extends Message> handler(final int key)
    {
        return handlers.get(key);
    }

    RawMessageHandler rawHandler(final int key)
    {
        return rawHandlers.get(key);
    }
}
