package io.sirocco.dds.type;

/**
 * The serialized form of a sample: the XTypes 1.3 data representation together with the byte order.
 *
 * <p>Every serialized sample starts with the 4-byte RTPS encapsulation header (XTypes 1.3 §7.6.3.1.2): two bytes of
 * representation identifier, big-endian, then two option bytes. The identifier also tells the byte order, so a
 * reader never needs to be told how a sample was written.
 */
public enum DataRepresentation
{
    /** XCDR1 (PLAIN_CDR), big-endian: identifier CDR_BE. */
    XCDR1_BE(0x0000, 1, true),
    /** XCDR1 (PLAIN_CDR), little-endian: identifier CDR_LE. */
    XCDR1_LE(0x0001, 1, false),
    /** XCDR1 parameter-list form for mutable types, big-endian: PL_CDR_BE. */
    PL_XCDR1_BE(0x0002, 1, true),
    /** XCDR1 parameter-list form for mutable types, little-endian: PL_CDR_LE. */
    PL_XCDR1_LE(0x0003, 1, false),
    /** XCDR2 plain (final types), big-endian: CDR2_BE. */
    XCDR2_BE(0x0006, 2, true),
    /** XCDR2 plain (final types), little-endian: CDR2_LE. */
    XCDR2_LE(0x0007, 2, false),
    /** XCDR2 delimited (appendable types), big-endian: D_CDR2_BE. */
    D_XCDR2_BE(0x0008, 2, true),
    /** XCDR2 delimited (appendable types), little-endian: D_CDR2_LE. */
    D_XCDR2_LE(0x0009, 2, false),
    /** XCDR2 parameter-list (mutable types), big-endian: PL_CDR2_BE. */
    PL_XCDR2_BE(0x000a, 2, true),
    /** XCDR2 parameter-list (mutable types), little-endian: PL_CDR2_LE. */
    PL_XCDR2_LE(0x000b, 2, false);

    private final int encapsulationId;
    private final int xcdrVersion;
    private final boolean bigEndian;

    DataRepresentation(final int encapsulationId, final int xcdrVersion, final boolean bigEndian)
    {
        this.encapsulationId = encapsulationId;
        this.xcdrVersion = xcdrVersion;
        this.bigEndian = bigEndian;
    }

    /** The two-byte representation identifier written first in the encapsulation header. */
    public int encapsulationId()
    {
        return encapsulationId;
    }

    /** 1 for XCDR1 (8-byte values aligned to 8), 2 for XCDR2 (8-byte values aligned to 4). */
    public int xcdrVersion()
    {
        return xcdrVersion;
    }

    public boolean bigEndian()
    {
        return bigEndian;
    }

    /**
     * Finds the representation for an encapsulation identifier read off the wire.
     *
     * @throws IllegalArgumentException naming the identifier when it is not one Sirocco reads.
     */
    public static DataRepresentation fromEncapsulationId(final int id)
    {
        for (final DataRepresentation representation : values())
        {
            if (representation.encapsulationId == id)
            {
                return representation;
            }
        }
        throw new IllegalArgumentException(String.format("unknown encapsulation identifier 0x%04x", id));
    }
}
