package io.sirocco.log.replication;

import java.util.ArrayList;
import java.util.List;

import io.sirocco.log.zone.ZoneId;
import io.sirocco.transport.Exporter;
import io.sirocco.transport.Importer;
import io.sirocco.transport.Message;
import io.sirocco.transport.MessagingService;

/**
 * The replication protocol's messages, all of message type {@link #TYPE} (0x4C, "L"). Zone setup and log batches
 * are ordered messages, so one connection's batches reach the backup's store in the order the owner sent them
 * (the thesis's "exclusive" messages).
 */
public final class ReplicationMessages
{
    public static final int TYPE = 0x4C;
    public static final int CREATE_ZONE = 1;
    public static final int LOG_BATCH = 2;
    public static final int ZONE_ACK = 3;

    /** Entry record inside a batch: flags 1 B (bit 0 tombstone) | keyHash 8 | sequence 8 | length 4 | payload. */
    public static final int ENTRY_HEADER_BYTES = 21;

    private ReplicationMessages()
    {
    }

    /** Registers the message classes on a service (both roles need all of them). */
    public static void registerTypes(final MessagingService service)
    {
        service.registerMessageType(TYPE, CREATE_ZONE, CreateZone::new);
        service.registerMessageType(TYPE, LOG_BATCH, LogBatch::new);
        service.registerMessageType(TYPE, ZONE_ACK, ZoneAck::new);
    }

    /** Owner to backup: open a zone (or take it over, after a failover) with this owner and backup order. */
    public static final class CreateZone extends Message
    {
        ZoneId zone;
        int owner;
        List<Integer> backups = new ArrayList<>();

        public CreateZone()
        {
            super(TYPE, CREATE_ZONE, true);
        }

        CreateZone(final ZoneId zone, final int owner, final List<Integer> backups)
        {
            this();
            this.zone = zone;
            this.owner = owner;
            this.backups = backups;
        }

        @Override
        public int payloadSize()
        {
            return 8 + 4 + 4 + 4 + 4 * backups.size();
        }

        @Override
        public void exportPayload(final Exporter exporter)
        {
            exporter.writeLong(zone.writerId());
            exporter.writeInt(zone.zoneIndex());
            exporter.writeInt(owner);
            exporter.writeInt(backups.size());
            for (final int backup : backups)
            {
                exporter.writeInt(backup);
            }
        }

        @Override
        public void importPayload(final Importer importer)
        {
            zone = new ZoneId(importer.readLong(), importer.readInt());
            owner = importer.readInt();
            final int n = importer.readInt();
            if (n < 0 || n > 1024)
            {
                throw new IllegalArgumentException("CreateZone: bad backup count " + n);
            }
            backups = new ArrayList<>(n);
            for (int i = 0; i < n; i++)
            {
                backups.add(importer.readInt());
            }
        }
    }

    /** Owner to backup: consecutive entries of one zone with tickets {@code firstTicket, firstTicket + 1, ...}. */
    public static final class LogBatch extends Message
    {
        ZoneId zone;
        long firstTicket;
        int count;
        byte[] data;
        int length;

        public LogBatch()
        {
            super(TYPE, LOG_BATCH, true);
        }

        @Override
        public int payloadSize()
        {
            return 8 + 4 + 8 + 4 + 4 + length;
        }

        @Override
        public void exportPayload(final Exporter exporter)
        {
            exporter.writeLong(zone.writerId());
            exporter.writeInt(zone.zoneIndex());
            exporter.writeLong(firstTicket);
            exporter.writeInt(count);
            exporter.writeInt(length);
            exporter.writeBytes(data, 0, length);
        }

        @Override
        public void importPayload(final Importer importer)
        {
            zone = new ZoneId(importer.readLong(), importer.readInt());
            firstTicket = importer.readLong();
            count = importer.readInt();
            length = importer.readInt();
            if (length < 0 || length > importer.remaining())
            {
                throw new IllegalArgumentException("LogBatch: bad length " + length);
            }
            data = new byte[length];
            importer.readBytes(data, 0, length);
        }
    }

    /** Backup to owner: every entry of the zone up to {@code ticket} is persisted under the backup's policy. */
    public static final class ZoneAck extends Message
    {
        ZoneId zone;
        long ticket;

        public ZoneAck()
        {
            super(TYPE, ZONE_ACK, true);
        }

        ZoneAck(final ZoneId zone, final long ticket)
        {
            this();
            this.zone = zone;
            this.ticket = ticket;
        }

        @Override
        public int payloadSize()
        {
            return 8 + 4 + 8;
        }

        @Override
        public void exportPayload(final Exporter exporter)
        {
            exporter.writeLong(zone.writerId());
            exporter.writeInt(zone.zoneIndex());
            exporter.writeLong(ticket);
        }

        @Override
        public void importPayload(final Importer importer)
        {
            zone = new ZoneId(importer.readLong(), importer.readInt());
            ticket = importer.readLong();
        }
    }
}
