package io.sirocco.transport;

/** Message classes shared by the transport tests. */
final class TestMessages
{
    static final int TYPE = 42;
    static final int DATA = 1;
    static final int ECHO_REQUEST = 2;
    static final int ECHO_RESPONSE = 3;
    static final int ORDERED_DATA = 4;

    private TestMessages()
    {
    }

    /** A message carrying (sender, thread, sequence) and a payload whose bytes are derived from them. */
    static final class Data extends Message
    {
        int sender;
        int thread;
        long sequence;
        byte[] payload = new byte[0];

        Data()
        {
            super(TYPE, DATA);
        }

        Data(final boolean ordered)
        {
            super(TYPE, ordered ? ORDERED_DATA : DATA, ordered);
        }

        static byte expected(final int sender, final int thread, final long sequence, final int index)
        {
            return (byte)(sender * 31 + thread * 17 + sequence * 7 + index * 13 + (index >>> 8));
        }

        Data fill(final int sender, final int thread, final long sequence, final int size)
        {
            this.sender = sender;
            this.thread = thread;
            this.sequence = sequence;
            this.payload = new byte[size];
            for (int i = 0; i < size; i++)
            {
                payload[i] = expected(sender, thread, sequence, i);
            }
            return this;
        }

        boolean intact()
        {
            for (int i = 0; i < payload.length; i++)
            {
                if (payload[i] != expected(sender, thread, sequence, i))
                {
                    return false;
                }
            }
            return true;
        }

        @Override
        public int payloadSize()
        {
            return 4 + 4 + 8 + 4 + payload.length;
        }

        @Override
        public void exportPayload(final Exporter exporter)
        {
            exporter.writeInt(sender);
            exporter.writeInt(thread);
            exporter.writeLong(sequence);
            exporter.writeInt(payload.length);
            exporter.writeBytes(payload);
        }

        @Override
        public void importPayload(final Importer importer)
        {
            sender = importer.readInt();
            thread = importer.readInt();
            sequence = importer.readLong();
            final int length = importer.readInt();
            if (length < 0 || length > importer.remaining())
            {
                throw MalformedPayloadException.INSTANCE;
            }
            payload = new byte[length];
            importer.readBytes(payload, 0, length);
        }
    }

    static final class EchoRequest extends Request
    {
        long value;
        String text = "";

        EchoRequest()
        {
            super(TYPE, ECHO_REQUEST);
        }

        EchoRequest(final long value, final String text)
        {
            this();
            this.value = value;
            this.text = text;
        }

        @Override
        public int payloadSize()
        {
            return 8 + Exporter.stringSize(text);
        }

        @Override
        public void exportPayload(final Exporter exporter)
        {
            exporter.writeLong(value);
            exporter.writeString(text);
        }

        @Override
        public void importPayload(final Importer importer)
        {
            value = importer.readLong();
            text = importer.readString();
        }
    }

    static final class EchoResponse extends Response
    {
        long value;
        String text = "";

        EchoResponse()
        {
            super(TYPE, ECHO_RESPONSE);
        }

        EchoResponse(final long value, final String text)
        {
            this();
            this.value = value;
            this.text = text;
        }

        @Override
        public int payloadSize()
        {
            return 8 + Exporter.stringSize(text);
        }

        @Override
        public void exportPayload(final Exporter exporter)
        {
            exporter.writeLong(value);
            exporter.writeString(text);
        }

        @Override
        public void importPayload(final Importer importer)
        {
            value = importer.readLong();
            text = importer.readString();
        }
    }

    /** Registers the echo pair with a handler that answers value + 1 and the same text. */
    static void registerEcho(final MessagingService node)
    {
        node.registerMessageType(TYPE, ECHO_RESPONSE, EchoResponse::new);
        node.register(TYPE, ECHO_REQUEST, EchoRequest::new,
            (EchoRequest request) -> node.respond(request, new EchoResponse(request.value + 1, request.text)));
    }
}
