package io.sirocco.ib.bootstrap;

import io.sirocco.transport.Exporter;
import io.sirocco.transport.Importer;
import io.sirocco.transport.MessagingService;
import io.sirocco.transport.Request;
import io.sirocco.transport.Response;

/**
 * The two messages of the {@link ControlExchange}, carried by messaging-transport: a higher-ranked member's
 * {@link Offer} (a request) and the lower-ranked member's {@link Answer} (its response). Both carry one opaque blob
 * (for the row transport, a {@code RowRegionInfo}: QP number, PSN, LID, GID, table address, rkey, length).
 */
public final class ExchangeMessages
{
    /** The message type of the exchange (each control endpoint runs its own messaging service). */
    public static final int TYPE = 0x49;
    static final int OFFER = 1;
    static final int ANSWER = 2;

    private ExchangeMessages()
    {
    }

    /** Registers both message classes with a service. */
    public static void register(final MessagingService service)
    {
        service.registerMessageType(TYPE, OFFER, Offer::new);
        service.registerMessageType(TYPE, ANSWER, Answer::new);
    }

    /** From the member of rank {@code fromRank}: its blob for the receiver, for round {@code round} of a view. */
    public static final class Offer extends Request
    {
        long viewId;
        int round;
        int fromRank;
        byte[] blob;

        Offer()
        {
            super(TYPE, OFFER);
        }

        Offer(final long viewId, final int round, final int fromRank, final byte[] blob)
        {
            this();
            this.viewId = viewId;
            this.round = round;
            this.fromRank = fromRank;
            this.blob = blob;
        }

        @Override
        public int payloadSize()
        {
            return 8 + 4 + 4 + Exporter.byteArraySize(blob);
        }

        @Override
        public void exportPayload(final Exporter exporter)
        {
            exporter.writeLong(viewId);
            exporter.writeInt(round);
            exporter.writeInt(fromRank);
            exporter.writeByteArray(blob);
        }

        @Override
        public void importPayload(final Importer importer)
        {
            viewId = importer.readLong();
            round = importer.readInt();
            fromRank = importer.readInt();
            blob = importer.readByteArray();
        }
    }

    /** The answer of the member of rank {@code fromRank}: its blob for the requester. */
    public static final class Answer extends Response
    {
        int fromRank;
        byte[] blob;

        Answer()
        {
            super(TYPE, ANSWER);
        }

        Answer(final int fromRank, final byte[] blob)
        {
            this();
            this.fromRank = fromRank;
            this.blob = blob;
        }

        @Override
        public int payloadSize()
        {
            return 4 + Exporter.byteArraySize(blob);
        }

        @Override
        public void exportPayload(final Exporter exporter)
        {
            exporter.writeInt(fromRank);
            exporter.writeByteArray(blob);
        }

        @Override
        public void importPayload(final Importer importer)
        {
            fromRank = importer.readInt();
            blob = importer.readByteArray();
        }
    }
}
