package io.sirocco.multicast.sst;

/**
 * Layout of one SMC slot: a 32-byte header then the payload. Stateless, offsets only.
 *
 * <pre>
 *   0  long  index      message index this slot holds (lossy mode: ~index while being written)
 *   8  int   length     payload length in bytes
 *  12  int   nulls      > 0: this slot starts a run of that many null messages (indices index .. index+nulls-1)
 *  16  int   flags      FLAG_BULK: the payload lives in the sender's bulk region, same ring position
 *  20..31    reserved
 * </pre>
 *
 * Written by the slot's owner (application thread while claimed, predicate thread for nulls) before the subgroup's
 * {@code committed} guard is released; read by receivers after they acquired that guard.
 */
public final class SlotDescriptor
{
    public static final int HEADER_LENGTH = 32;
    public static final int INDEX_OFFSET = 0;
    public static final int LENGTH_OFFSET = 8;
    public static final int NULLS_OFFSET = 12;
    public static final int FLAGS_OFFSET = 16;
    public static final int FLAG_BULK = 1;

    private SlotDescriptor()
    {
    }

    /**
     * @param slotSizeBytes payload capacity.
     * @return slot width: header plus payload, rounded up to a 64-byte cache line.
     */
    public static long slotWidth(final int slotSizeBytes)
    {
        return align(HEADER_LENGTH + (long)slotSizeBytes, 64);
    }

    public static long align(final long value, final long alignment)
    {
        return (value + alignment - 1) & -alignment;
    }
}
