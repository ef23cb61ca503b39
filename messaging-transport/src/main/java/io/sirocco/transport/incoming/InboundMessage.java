package io.sirocco.transport.incoming;

import io.sirocco.transport.spi.Connection;
import io.sirocco.transport.spi.IncomingBuffer;

import java.lang.foreign.MemorySegment;

/**
 * One parsed frame on its way from the coordinator to a handler: where its payload lies and its header fields.
 * Pooled: the coordinator fills one, a handler queue publishes it, the handler delivers it and returns it.
 */
public final class InboundMessage
{
    Connection connection;
    IncomingBuffer buffer;
    MemorySegment segment;
    long offset;
    int length;
    int flags;
    int type;
    int subtype;
    int requestId;

    public Connection connection()
    {
        return connection;
    }

    public MemorySegment segment()
    {
        return segment;
    }

    public long offset()
    {
        return offset;
    }

    public int length()
    {
        return length;
    }

    public int flags()
    {
        return flags;
    }

    public int type()
    {
        return type;
    }

    public int subtype()
    {
        return subtype;
    }

    public int requestId()
    {
        return requestId;
    }

    void clear()
    {
        connection = null;
        buffer = null;
        segment = null;
    }
}
