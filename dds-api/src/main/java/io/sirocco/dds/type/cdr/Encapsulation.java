package io.sirocco.dds.type.cdr;

import io.sirocco.dds.type.DataRepresentation;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The 4-byte encapsulation header in front of every serialized sample (XTypes 1.3 §7.6.3.1.2, RTPS 2.5 §10.2):
 * the representation identifier as a big-endian uint16, then two option bytes that Sirocco writes as zero.
 */
public final class Encapsulation
{
    private static final ValueLayout.OfShort SHORT_BE =
        ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    /** Representations by identifier: {@code DataRepresentation.values()} would copy an array on every read. */
    private static final DataRepresentation[] BY_ID = new DataRepresentation[16];

    static
    {
        for (final DataRepresentation r : DataRepresentation.values())
        {
            BY_ID[r.encapsulationId()] = r;
        }
    }

    private Encapsulation()
    {
    }

    public static void write(final MemorySegment segment, final long offset, final DataRepresentation representation)
    {
        segment.set(SHORT_BE, offset, (short)representation.encapsulationId());
        segment.set(SHORT_BE, offset + 2, (short)0);
    }

    /**
     * Reads the header at {@code offset}, checking that {@code length} covers it.
     *
     * @throws CdrFormatException when the bytes are too short or the identifier is unknown.
     */
    public static DataRepresentation read(final MemorySegment segment, final long offset, final long length)
    {
        if (length < Xcdr.ENCAPSULATION_HEADER_SIZE || offset < 0 || offset + length > segment.byteSize())
        {
            throw new CdrFormatException(-4, "sample of " + length + " bytes has no room for its encapsulation header");
        }
        final int id = segment.get(SHORT_BE, offset) & 0xffff;
        final DataRepresentation representation = id < BY_ID.length ? BY_ID[id] : null;
        if (representation == null)
        {
            throw new CdrFormatException(-4, String.format("unknown encapsulation identifier 0x%04x", id));
        }
        return representation;
    }
}
