package io.sirocco.transport.core;

import io.sirocco.transport.Importer;
import io.sirocco.transport.InboundFrame;
import io.sirocco.transport.protocol.FrameDescriptor;

/** The reused flyweight a {@link io.sirocco.transport.RawMessageHandler} sees; one per delivering thread. */
final class InboundFrameView implements InboundFrame
{
    int sourceNodeId;
    int type;
    int subtype;
    int flags;
    int requestId;
    int payloadLength;
    Importer importer;

    @Override public int sourceNodeId() { return sourceNodeId; }
    @Override public int type() { return type; }
    @Override public int subtype() { return subtype; }
    @Override public boolean ordered() { return (flags & FrameDescriptor.FLAG_ORDERED) != 0; }
    @Override public boolean isRequest() { return FrameDescriptor.kind(flags) == FrameDescriptor.KIND_REQUEST; }
    @Override public int requestId() { return requestId; }
    @Override public int payloadLength() { return payloadLength; }
    @Override public Importer importer() { return importer; }
}
