package io.sirocco.transport.core;

import io.sirocco.transport.MalformedPayloadException;
import io.sirocco.transport.Message;
import io.sirocco.transport.MessageHandler;
import io.sirocco.transport.MessageTypes;
import io.sirocco.transport.NodeUnreachableException;
import io.sirocco.transport.RawMessageHandler;
import io.sirocco.transport.Request;
import io.sirocco.transport.Response;
import io.sirocco.transport.TransportStatistics;
import io.sirocco.transport.incoming.InboundDelivery;
import io.sirocco.transport.incoming.InboundMessage;
import io.sirocco.transport.incoming.SegmentImporter;
import io.sirocco.transport.spi.Connection;
import io.sirocco.transport.spi.Transport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static io.sirocco.transport.protocol.FrameDescriptor.*;

/**
 * Delivers inbound messages as the {@link MessageDirectory} says: a response completes its pending request, a raw
 * handler gets a reused {@link InboundFrameView}, anything else is imported into a fresh message from its factory
 * and handed to its typed handler. A payload that does not import cleanly is malformed: the caller closes the
 * connection for bad input. Protocol errors and stream ends close the connection; pending credits signal the
 * transport.
 *
 * <p>Called by the coordinator and the handler agents, each with its own {@link SegmentImporter}; the frame view is
 * per thread. A failing handler is counted and logged; it never stops delivery.
 */
final class DirectoryDelivery implements InboundDelivery
{
    private static final Logger LOG = LoggerFactory.getLogger(DirectoryDelivery.class);

    private final int ownNodeId;
    private final MessageDirectory directory;
    private final RequestMap requests;
    private final ConnectionManager connections;
    private final Transport transport;
    private final TransportStatistics statistics;
    private final ThreadLocal<InboundFrameView> frames = ThreadLocal.withInitial(InboundFrameView::new);

    DirectoryDelivery(final int ownNodeId, final MessageDirectory directory, final RequestMap requests,
        final ConnectionManager connections, final Transport transport, final TransportStatistics statistics)
    {
        this.ownNodeId = ownNodeId;
        this.directory = directory;
        this.requests = requests;
        this.connections = connections;
        this.transport = transport;
        this.statistics = statistics;
    }

    @Override
    public boolean accepts(final int kind, final int type, final int subtype)
    {
        final int key = MessageTypes.key(type, subtype);
        if (type == 0)
        {
            return false;
        }
        if (kind == KIND_RESPONSE)
        {
            return directory.factory(key) != null;
        }
        return directory.rawHandler(key) != null || (directory.factory(key) != null && directory.handler(key) != null);
    }

    @Override
    public String deliver(final InboundMessage inbound, final SegmentImporter importer)
    {
        final int key = MessageTypes.key(inbound.type(), inbound.subtype());
        final int kind = kind(inbound.flags());
        final int source = inbound.connection().nodeId();
        importer.wrap(inbound.segment(), inbound.offset(), inbound.length());
        if (kind == KIND_RESPONSE)
        {
            return deliverResponse(inbound, importer, key, source);
        }
        final RawMessageHandler raw = directory.rawHandler(key);
        if (raw != null)
        {
            return deliverRaw(raw, inbound, importer, source);
        }
        return deliverTyped(inbound, importer, key, kind, source);
    }

    private String deliverResponse(final InboundMessage inbound, final SegmentImporter importer, final int key,
        final int source)
    {
        final PendingRequest pending = requests.remove(inbound.requestId(), source);
        if (pending == null)
        {
            return null; // a late response: its request timed out or was cancelled
        }
        final Message message = directory.factory(key).get();
        if (!(message instanceof Response response))
        {
            pending.completeExceptionally(new IllegalStateException("type (" + inbound.type() + ", " +
                inbound.subtype() + ") is registered with " + message.getClass().getName() + ", not a Response"));
            return null;
        }
        final String malformed = importInto(response, inbound, importer);
        if (malformed != null)
        {
            pending.completeExceptionally(new NodeUnreachableException(source, malformed));
            return malformed;
        }
        response.sourceNodeId(source);
        response.requestId(inbound.requestId());
        pending.complete(response);
        return null;
    }

    private String deliverRaw(final RawMessageHandler raw, final InboundMessage inbound,
        final SegmentImporter importer, final int source)
    {
        final InboundFrameView frame = frames.get();
        frame.sourceNodeId = source;
        frame.type = inbound.type();
        frame.subtype = inbound.subtype();
        frame.flags = inbound.flags();
        frame.requestId = inbound.requestId();
        frame.payloadLength = inbound.length();
        frame.importer = importer;
        try
        {
            raw.onMessage(frame);
        }
        catch (final MalformedPayloadException e)
        {
            return "malformed payload of type (" + inbound.type() + ", " + inbound.subtype() + ")";
        }
        catch (final Throwable t)
        {
            statistics.handlerError();
            LOG.error("node {}: raw handler for type ({}, {}) from node {} failed", ownNodeId, inbound.type(),
                inbound.subtype(), source, t);
        }
        finally
        {
            frame.importer = null;
        }
        return null;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private String deliverTyped(final InboundMessage inbound, final SegmentImporter importer, final int key,
        final int kind, final int source)
    {
        final Message message = directory.factory(key).get();
        if (kind == KIND_REQUEST && !(message instanceof Request))
        {
            return "a request frame for type (" + inbound.type() + ", " + inbound.subtype() + ") registered as " +
                message.getClass().getName() + ", which is not a Request";
        }
        final String malformed = importInto(message, inbound, importer);
        if (malformed != null)
        {
            return malformed;
        }
        message.sourceNodeId(source);
        if (message instanceof Request request)
        {
            request.requestId(inbound.requestId());
        }
        final MessageHandler handler = directory.handler(key);
        try
        {
            handler.onMessage(message);
        }
        catch (final Throwable t)
        {
            statistics.handlerError();
            LOG.error("node {}: handler for {} from node {} failed", ownNodeId, message.getClass().getName(), source, t);
        }
        return null;
    }

    private static String importInto(final Message message, final InboundMessage inbound, final SegmentImporter importer)
    {
        try
        {
            message.importPayload(importer);
        }
        catch (final MalformedPayloadException e)
        {
            return "malformed payload: " + message.getClass().getName() + " read past its " + inbound.length() +
                " payload bytes";
        }
        catch (final RuntimeException e)
        {
            return "malformed payload: " + message.getClass().getName() + ".importPayload failed: " + e;
        }
        if (importer.remaining() != 0)
        {
            return "malformed payload: " + message.getClass().getName() + " read " +
                (inbound.length() - importer.remaining()) + " of " + inbound.length() + " payload bytes";
        }
        return null;
    }

    @Override
    public void protocolError(final Connection connection, final String reason)
    {
        connections.closeConnection(connection, "bad input from node " + connection.nodeId() + ": " + reason, true);
    }

    @Override
    public void streamEnded(final Connection connection, final String reason)
    {
        connections.streamEnded(connection, reason);
    }

    @Override
    public void creditsPending(final Connection connection)
    {
        transport.signal(connection, Transport.CREDITS);
    }
}
