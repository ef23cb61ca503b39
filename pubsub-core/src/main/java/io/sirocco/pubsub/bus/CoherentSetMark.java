package io.sirocco.pubsub.bus;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * The payload of a {@link BusMessage#KIND_COHERENT_END} message: which coherent set of which Publisher ended, and how
 * many messages each of the publisher's writers sent in it (the writers that sent none are not listed). A reader
 * compares the count of its writer with what it holds (all-or-nothing: a set with a message missing is discarded);
 * a GROUP-scope subscriber waits for the part of every listed writer it receives. Unaligned, platform byte order:
 *
 * <pre>
 *   0        8            16           20
 *   +--------+------------+------------+----------------------------------+
 *   | pub    | set number | writers n  | n x (writer GUID long, count int) |
 *   +--------+------------+------------+----------------------------------+
 * </pre>
 *
 * <p>Immutable once decoded; made once per coherent set (never per sample).
 */
public final class CoherentSetMark
{
    private static final int HEADER_BYTES = 20;
    private static final int ENTRY_BYTES = 12;

    private final long publisherGuid;
    private final long setNumber;
    private final long[] writers;
    private final int[] counts;

    public CoherentSetMark(final long publisherGuid, final long setNumber, final long[] writers, final int[] counts)
    {
        if (writers.length != counts.length)
        {
            throw new IllegalArgumentException("a count per writer: " + writers.length + " writers, " +
                counts.length + " counts");
        }
        this.publisherGuid = publisherGuid;
        this.setNumber = setNumber;
        this.writers = writers.clone();
        this.counts = counts.clone();
    }

    public long publisherGuid()
    {
        return publisherGuid;
    }

    public long setNumber()
    {
        return setNumber;
    }

    /** The listed writers' GUIDs, in the order of {@link #countOf}'s index. */
    public int writerCount()
    {
        return writers.length;
    }

    public long writer(final int index)
    {
        return writers[index];
    }

    /** How many messages {@code writerGuid} sent in this set; -1 if it is not listed. */
    public int countOf(final long writerGuid)
    {
        for (int i = 0; i < writers.length; i++)
        {
            if (writers[i] == writerGuid)
            {
                return counts[i];
            }
        }
        return -1;
    }

    /** Writes this mark as {@code message}'s payload (the header fields are the caller's). */
    public void writeTo(final BusMessage message)
    {
        final int length = HEADER_BYTES + ENTRY_BYTES * writers.length;
        message.ensureCapacity(length);
        final MemorySegment out = message.payloadSegment();
        out.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, publisherGuid);
        out.set(ValueLayout.JAVA_LONG_UNALIGNED, 8, setNumber);
        out.set(ValueLayout.JAVA_INT_UNALIGNED, 16, writers.length);
        for (int i = 0; i < writers.length; i++)
        {
            out.set(ValueLayout.JAVA_LONG_UNALIGNED, HEADER_BYTES + (long)ENTRY_BYTES * i, writers[i]);
            out.set(ValueLayout.JAVA_INT_UNALIGNED, HEADER_BYTES + (long)ENTRY_BYTES * i + 8, counts[i]);
        }
        message.payloadLength(length);
    }

    /**
     * The mark in {@code message}'s payload; IllegalArgumentException when the payload is not one (a peer's malformed
     * message: the caller drops it).
     */
    public static CoherentSetMark readFrom(final BusMessage message)
    {
        final int length = message.payloadLength();
        final MemorySegment in = message.payloadSegment();
        final int n = length >= HEADER_BYTES ? in.get(ValueLayout.JAVA_INT_UNALIGNED, 16) : -1;
        if (n < 0 || n > (length - HEADER_BYTES) / ENTRY_BYTES)
        {
            throw new IllegalArgumentException("malformed coherent set end: " + length + " bytes, " + n + " writers");
        }
        final long[] writers = new long[n];
        final int[] counts = new int[n];
        for (int i = 0; i < n; i++)
        {
            writers[i] = in.get(ValueLayout.JAVA_LONG_UNALIGNED, HEADER_BYTES + (long)ENTRY_BYTES * i);
            counts[i] = in.get(ValueLayout.JAVA_INT_UNALIGNED, HEADER_BYTES + (long)ENTRY_BYTES * i + 8);
        }
        return new CoherentSetMark(in.get(ValueLayout.JAVA_LONG_UNALIGNED, 0),
            in.get(ValueLayout.JAVA_LONG_UNALIGNED, 8), writers, counts);
    }

    @Override
    public String toString()
    {
        return String.format("coherent set %d of publisher %016x (writers %s, counts %s)", setNumber, publisherGuid,
            Arrays.toString(writers), Arrays.toString(counts));
    }
}
