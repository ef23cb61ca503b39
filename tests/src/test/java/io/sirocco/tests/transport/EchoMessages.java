package io.sirocco.tests.transport;

import io.sirocco.transport.Exporter;
import io.sirocco.transport.Importer;
import io.sirocco.transport.MessagingService;
import io.sirocco.transport.Request;
import io.sirocco.transport.Response;

/** The request/response pair the transport fault tests exchange, and a request a peer never answers. */
final class EchoMessages
{
    static final int TYPE = 77;
    static final int ECHO = 1;
    static final int ECHO_REPLY = 2;
    static final int HOLD = 3;
    static final int FUZZ = 9;

    private EchoMessages()
    {
    }

    static class Echo extends Request
    {
        long value;

        Echo()
        {
            this(ECHO);
        }

        Echo(final int subtype)
        {
            super(TYPE, subtype);
        }

        Echo value(final long v)
        {
            value = v;
            return this;
        }

        @Override public int payloadSize() { return 8; }
        @Override public void exportPayload(final Exporter exporter) { exporter.writeLong(value); }
        @Override public void importPayload(final Importer importer) { value = importer.readLong(); }
    }

    static final class Hold extends Echo
    {
        Hold()
        {
            super(HOLD);
        }
    }

    static final class EchoReply extends Response
    {
        long value;

        EchoReply()
        {
            super(TYPE, ECHO_REPLY);
        }

        @Override public int payloadSize() { return 8; }
        @Override public void exportPayload(final Exporter exporter) { exporter.writeLong(value); }
        @Override public void importPayload(final Importer importer) { value = importer.readLong(); }
    }

    /** Echo answers value + 1; Hold is accepted and never answered. */
    static void register(final MessagingService node)
    {
        node.registerMessageType(TYPE, ECHO_REPLY, EchoReply::new);
        node.register(TYPE, ECHO, Echo::new, (Echo echo) ->
        {
            final EchoReply reply = new EchoReply();
            reply.value = echo.value + 1;
            node.respond(echo, reply);
        });
        node.register(TYPE, HOLD, Hold::new, (Hold hold) -> { });
    }
}
