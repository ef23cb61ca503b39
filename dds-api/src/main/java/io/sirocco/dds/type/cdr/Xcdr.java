package io.sirocco.dds.type.cdr;

import io.sirocco.dds.type.DataRepresentation;

/**
 * Constants and small rules of the XTypes 1.3 data representation (§7.4) shared by the writer, the reader and the
 * generated code.
 */
public final class Xcdr
{
    /** Extensibility kinds, as generated code passes them. */
    public static final int FINAL = 0;
    public static final int APPENDABLE = 1;
    public static final int MUTABLE = 2;

    /** EMHEADER1 must-understand flag (§7.4.3.4.2): bit 31. */
    public static final int EMHEADER_MUST_UNDERSTAND = 0x8000_0000;
    /** EMHEADER1 member id mask: bits 0..27. */
    public static final int EMHEADER_ID_MASK = 0x0FFF_FFFF;
    /** Length codes 0..3 give the member size directly; 4 means a NEXTINT follows with the size in bytes. */
    public static final int LC_1 = 0;
    public static final int LC_2 = 1;
    public static final int LC_4 = 2;
    public static final int LC_8 = 3;
    public static final int LC_NEXTINT = 4;

    /** XCDR1 parameter-list ids (§7.4.1.2.1): extended header, list end, and the must-understand flag. */
    public static final int PID_EXTENDED = 0x3f01;
    public static final int PID_LIST_END = 0x3f02;
    public static final int PID_MUST_UNDERSTAND = 0x4000;
    public static final int PID_ID_MASK = 0x3fff;

    /** Size of the RTPS encapsulation header that starts every serialized sample. */
    public static final int ENCAPSULATION_HEADER_SIZE = 4;

    private Xcdr()
    {
    }

    /**
     * The representation a type of the given extensibility is written in, for the XCDR version and byte order that
     * the caller asked for: the caller chooses version and byte order, the type chooses plain, delimited or
     * parameter-list form.
     */
    public static DataRepresentation representationFor(
        final int extensibility, final int xcdrVersion, final boolean bigEndian)
    {
        if (xcdrVersion == 1)
        {
            if (extensibility == MUTABLE)
            {
                return bigEndian ? DataRepresentation.PL_XCDR1_BE : DataRepresentation.PL_XCDR1_LE;
            }
            return bigEndian ? DataRepresentation.XCDR1_BE : DataRepresentation.XCDR1_LE;
        }
        return switch (extensibility)
        {
            case APPENDABLE -> bigEndian ? DataRepresentation.D_XCDR2_BE : DataRepresentation.D_XCDR2_LE;
            case MUTABLE -> bigEndian ? DataRepresentation.PL_XCDR2_BE : DataRepresentation.PL_XCDR2_LE;
            default -> bigEndian ? DataRepresentation.XCDR2_BE : DataRepresentation.XCDR2_LE;
        };
    }
}
