package io.sirocco.pubsub.bus;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The wire form of discovery: an {@link EndpointRecord} (op ANNOUNCE) or a retraction (op RETRACT, the GUID only;
 * op RETRACT_AFTER_MARK when the writer sent an end mark in its topic subgroup first, see {@code GroupBus}),
 * big-endian, strings as length-prefixed UTF-8. Decoding bad bytes throws IllegalArgumentException with the
 * offset, so a corrupt announcement is logged and dropped, never fatal.
 */
public final class RecordCodec
{
    public static final byte ANNOUNCE = 1;
    public static final byte RETRACT = 2;
    /** A retraction of a writer that sent an end mark in its topic subgroup before it (same form as RETRACT). */
    public static final byte RETRACT_AFTER_MARK = 3;
    private static final int MAX_STRING = 65_536;

    private RecordCodec()
    {
    }

    public static byte[] announce(final EndpointRecord r)
    {
        final ByteBuffer b = ByteBuffer.allocate(512 + size(r));
        b.put(ANNOUNCE).putInt(r.kind()).putLong(r.guid()).putLong(r.participantGuid());
        string(b, r.topicName());
        string(b, r.typeName());
        string(b, r.typeClassName());
        b.putInt(r.reliabilityKind()).putLong(r.maxBlockingNs()).putInt(r.durabilityKind()).putLong(r.deadlineNs())
            .putLong(r.latencyBudgetNs()).putInt(r.livelinessKind()).putLong(r.leaseNs()).putInt(r.ownershipKind())
            .putInt(r.destinationOrderKind()).putInt(r.presentationScope()).put((byte)(r.coherentAccess() ? 1 : 0))
            .put((byte)(r.orderedAccess() ? 1 : 0)).putInt(r.historyKind()).putInt(r.historyDepth());
        b.putInt(r.partitions().size());
        for (final String partition : r.partitions())
        {
            string(b, partition);
        }
        final byte[] userData = r.userData() == null ? new byte[0] : r.userData();
        b.putInt(userData.length).put(userData);
        string(b, r.hostName());
        b.putLong(r.pid()).putInt(r.ownershipStrength());
        string(b, r.filterExpression());
        b.putInt(r.filterParameters().size());
        for (final String parameter : r.filterParameters())
        {
            string(b, parameter);
        }
        b.putLong(r.lifespanNs());
        bytes(b, r.topicData());
        bytes(b, r.groupData());
        final byte[] out = new byte[b.position()];
        b.flip().get(out);
        return out;
    }

    private static int size(final EndpointRecord r)
    {
        int n = 8 * (r.topicName().length() + r.typeName().length() + r.typeClassName().length() +
            r.hostName().length() + r.filterExpression().length());
        for (final String partition : r.partitions())
        {
            n += 8 + 4 * partition.length();
        }
        for (final String parameter : r.filterParameters())
        {
            n += 8 + 4 * parameter.length();
        }
        return n + length(r.userData()) + length(r.topicData()) + length(r.groupData());
    }

    private static int length(final byte[] data)
    {
        return data == null ? 0 : data.length;
    }

    private static void bytes(final ByteBuffer b, final byte[] data)
    {
        final byte[] value = data == null ? new byte[0] : data;
        b.putInt(value.length).put(value);
    }

    public static byte[] retract(final long guid)
    {
        return ByteBuffer.allocate(9).put(RETRACT).putLong(guid).array();
    }

    /** A retraction that the receivers apply only after the writer's end mark (or its member's departure). */
    public static byte[] retractAfterMark(final long guid)
    {
        return ByteBuffer.allocate(9).put(RETRACT_AFTER_MARK).putLong(guid).array();
    }

    private static void string(final ByteBuffer b, final String s)
    {
        final byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        b.putInt(bytes.length).put(bytes);
    }

    private static String string(final ByteBuffer b)
    {
        final int n = b.getInt();
        if (n < 0 || n > MAX_STRING || n > b.remaining())
        {
            throw new IllegalArgumentException("bad string length " + n + " at offset " + (b.position() - 4));
        }
        final byte[] bytes = new byte[n];
        b.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** The op byte of an encoded message. */
    public static byte op(final byte[] message)
    {
        return message[0];
    }

    public static long retractedGuid(final byte[] message)
    {
        return ByteBuffer.wrap(message, 1, 8).getLong();
    }

    public static EndpointRecord decode(final byte[] message)
    {
        try
        {
            final ByteBuffer b = ByteBuffer.wrap(message);
            if (b.get() != ANNOUNCE)
            {
                throw new IllegalArgumentException("not an announcement");
            }
            final int kind = b.getInt();
            if (kind < EndpointRecord.PARTICIPANT || kind > EndpointRecord.READER)
            {
                throw new IllegalArgumentException("bad record kind " + kind);
            }
            final long guid = b.getLong();
            final long participantGuid = b.getLong();
            final String topic = string(b);
            final String type = string(b);
            final String typeClass = string(b);
            final int reliability = enumValue(b.getInt(), 2);
            final long maxBlocking = b.getLong();
            final int durability = enumValue(b.getInt(), 4);
            final long deadline = b.getLong();
            final long latency = b.getLong();
            final int liveliness = enumValue(b.getInt(), 3);
            final long lease = b.getLong();
            final int ownership = enumValue(b.getInt(), 2);
            final int order = enumValue(b.getInt(), 2);
            final int scope = enumValue(b.getInt(), 3);
            final boolean coherent = b.get() != 0;
            final boolean ordered = b.get() != 0;
            final int historyKind = enumValue(b.getInt(), 2);
            final int depth = b.getInt();
            final List<String> partitions = strings(b, "partition");
            final byte[] userData = bytes(b, "user data");
            final String host = string(b);
            final long pid = b.getLong();
            final int strength = b.getInt();
            final String filter = string(b);
            final List<String> filterParameters = strings(b, "filter parameter");
            // Last, and optional: a peer built before LIFESPAN travelled announces none (infinite).
            final long lifespan = b.remaining() >= Long.BYTES ? b.getLong() : Long.MAX_VALUE;
            if (lifespan < 0)
            {
                throw new IllegalArgumentException("bad lifespan " + lifespan + " ns");
            }
            // Optional too: a peer built before TOPIC_DATA and GROUP_DATA travelled announces neither.
            final byte[] topicData = b.hasRemaining() ? bytes(b, "topic data") : new byte[0];
            final byte[] groupData = b.hasRemaining() ? bytes(b, "group data") : new byte[0];
            return new EndpointRecord(kind, guid, participantGuid, topic, type, typeClass, reliability, maxBlocking,
                durability, deadline, latency, liveliness, lease, ownership, order, scope, coherent, ordered,
                historyKind, depth, partitions, userData, host, pid, strength, filter, filterParameters, lifespan, topicData,
                groupData);
        }
        catch (final BufferUnderflowException ex)
        {
            throw new IllegalArgumentException("truncated discovery record (" + message.length + " bytes)", ex);
        }
    }

    /** A count and that many strings (partitions, filter parameters); {@code what} names them in errors. */
    private static List<String> strings(final ByteBuffer b, final String what)
    {
        final int count = b.getInt();
        if (count < 0 || count > 1024)
        {
            throw new IllegalArgumentException("bad " + what + " count " + count);
        }
        final List<String> strings = new ArrayList<>(count);
        for (int i = 0; i < count; i++)
        {
            strings.add(string(b));
        }
        return List.copyOf(strings);
    }

    /** A length and that many bytes (USER_DATA, TOPIC_DATA, GROUP_DATA); {@code what} names them in errors. */
    private static byte[] bytes(final ByteBuffer b, final String what)
    {
        final int length = b.getInt();
        if (length < 0 || length > b.remaining())
        {
            throw new IllegalArgumentException("bad " + what + " length " + length);
        }
        final byte[] data = new byte[length];
        b.get(data);
        return data;
    }

    private static int enumValue(final int value, final int count)
    {
        if (value < 0 || value >= count)
        {
            throw new IllegalArgumentException("enum ordinal " + value + " out of range 0.." + (count - 1));
        }
        return value;
    }
}
