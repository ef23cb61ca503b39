package io.sirocco.examples.cli.transport;

import io.sirocco.transport.Exporter;
import io.sirocco.transport.Importer;
import io.sirocco.transport.Message;
import io.sirocco.transport.Request;
import io.sirocco.transport.Response;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The benchmark's messages. Payload bytes come from (and go to) one off-heap segment per message object, so a
 * measurement allocates nothing but the response objects the request API creates.
 */
public final class BenchMessages
{
    public static final int TYPE = 200;
    public static final int PING = 1;
    public static final int PONG = 2;
    public static final int BLOB = 3;
    public static final int STATS = 4;
    public static final int STATS_REPLY = 5;

    private BenchMessages()
    {
    }

    private static MemorySegment segment(final int size)
    {
        return Arena.ofAuto().allocate(Math.max(1, size));
    }

    /** A request carrying {@code size} payload bytes. */
    public static final class Ping extends Request
    {
        private final MemorySegment payload;
        private final int size;

        public Ping(final int size)
        {
            super(TYPE, PING);
            this.size = size;
            this.payload = segment(size);
        }

        @Override public int payloadSize() { return size; }
        @Override public void exportPayload(final Exporter exporter) { exporter.writeSegment(payload, 0, size); }
        @Override public void importPayload(final Importer importer) { importer.readSegment(payload, 0, size); }
    }

    /** The response: as many bytes as the request. Read into one shared scratch segment (contents unused). */
    public static final class Pong extends Response
    {
        private static final MemorySegment SCRATCH = Arena.ofAuto().allocate(64 << 20);
        private final MemorySegment payload;
        private int size;

        public Pong()
        {
            super(TYPE, PONG);
            this.payload = null;
        }

        public Pong(final int size)
        {
            super(TYPE, PONG);
            this.size = size;
            this.payload = segment(size);
        }

        @Override public int payloadSize() { return size; }
        @Override public void exportPayload(final Exporter exporter) { exporter.writeSegment(payload, 0, size); }

        @Override
        public void importPayload(final Importer importer)
        {
            size = importer.remaining();
            importer.readSegment(SCRATCH, 0, Math.min(size, (int)SCRATCH.byteSize()));
        }
    }

    /** A one-way message of {@code size} bytes. */
    public static final class Blob extends Message
    {
        private final MemorySegment payload;
        private final int size;

        public Blob(final int size)
        {
            super(TYPE, BLOB);
            this.size = size;
            this.payload = segment(size);
        }

        @Override public int payloadSize() { return size; }
        @Override public void exportPayload(final Exporter exporter) { exporter.writeSegment(payload, 0, size); }
        @Override public void importPayload(final Importer importer) { importer.readSegment(payload, 0, size); }
    }

    /** Asks the peer how many blobs and bytes it has received. */
    public static final class Stats extends Request
    {
        public Stats()
        {
            super(TYPE, STATS);
        }

        @Override public int payloadSize() { return 0; }
        @Override public void exportPayload(final Exporter exporter) { }
        @Override public void importPayload(final Importer importer) { }
    }

    public static final class StatsReply extends Response
    {
        public long messages;
        public long bytes;

        public StatsReply()
        {
            super(TYPE, STATS_REPLY);
        }

        @Override public int payloadSize() { return 16; }

        @Override
        public void exportPayload(final Exporter exporter)
        {
            exporter.writeLong(messages);
            exporter.writeLong(bytes);
        }

        @Override
        public void importPayload(final Importer importer)
        {
            messages = importer.readLong();
            bytes = importer.readLong();
        }
    }
}
