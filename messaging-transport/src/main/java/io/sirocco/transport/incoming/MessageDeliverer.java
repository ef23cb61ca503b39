package io.sirocco.transport.incoming;

import io.sirocco.transport.concurrent.MpmcArrayQueue;

/**
 * Delivers one parsed message to the {@link InboundDelivery} and recycles it: the message descriptor goes back to a
 * free list, its buffer reference is released. Shared by the coordinator (responses, or everything with zero
 * handler threads) and the handler agents.
 *
 * <p>Concurrency: {@link #deliverNow} runs on any of those threads, each with its own {@link SegmentImporter}. The
 * free list is a many-producer, many-consumer queue: every delivering thread returns descriptors, the coordinator
 * (the parsing thread) takes them. Steady state allocates nothing: a descriptor is created only when the free list
 * is empty.
 */
final class MessageDeliverer
{
    private final MpmcArrayQueue<InboundMessage> freeMessages = new MpmcArrayQueue<>(1 << 14);
    private final InboundDelivery delivery;

    MessageDeliverer(final InboundDelivery delivery)
    {
        this.delivery = delivery;
        for (int i = 0; i < 1024; i++)
        {
            freeMessages.offer(new InboundMessage());
        }
    }

    /** A free descriptor (parsing thread only). */
    InboundMessage acquire()
    {
        InboundMessage message = freeMessages.poll();
        if (message == null)
        {
            message = new InboundMessage();
        }
        return message;
    }

    /** Delivers one message and recycles it (handler threads, or the coordinator). */
    void deliverNow(final InboundMessage message, final SegmentImporter importer)
    {
        try
        {
            if (!message.connection.isClosed())
            {
                final String malformed = delivery.deliver(message, importer);
                if (malformed != null)
                {
                    delivery.protocolError(message.connection, malformed);
                }
            }
        }
        finally
        {
            importer.release();
            message.buffer.release();
            message.clear();
            freeMessages.offer(message);
        }
    }
}
