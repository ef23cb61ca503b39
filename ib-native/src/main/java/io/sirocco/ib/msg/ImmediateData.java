package io.sirocco.ib.msg;

/**
 * The 32 bits of immediate data every IB message carries (SEND_WITH_IMM), in host order; the verbs layer converts
 * to and from network order. Like Ibdxnet, flow control rides in the immediate, so a credit never costs a message
 * of its own unless there is no data to piggyback it on (then it is a zero-length SEND_WITH_IMM).
 *
 * <pre>
 *  31              16 15           8 7            0
 * +------------------+--------------+--------------+
 * |  source node id  |   credits    |    flags     |
 * +------------------+--------------+--------------+
 * </pre>
 * Credits count flow-control thresholds the sender of this message confirms for the reverse direction (0..255).
 * Flag {@link #FLAG_CREDITS_ONLY} marks a message without payload.
 */
public final class ImmediateData
{
    /** The message carries no payload, only credits. */
    public static final int FLAG_CREDITS_ONLY = 1;
    /** Largest credit count one immediate carries. */
    public static final int MAX_CREDITS = 255;

    private ImmediateData()
    {
    }

    /** Packs the fields; node ids are 16-bit, credits 0..255. */
    public static int encode(final int sourceNodeId, final int credits, final int flags)
    {
        if (sourceNodeId < 0 || sourceNodeId > 0xFFFF)
        {
            throw new IllegalArgumentException("node id " + sourceNodeId + " does not fit 16 bits");
        }
        if (credits < 0 || credits > MAX_CREDITS)
        {
            throw new IllegalArgumentException("credits " + credits + " outside 0.." + MAX_CREDITS);
        }
        return (sourceNodeId << 16) | (credits << 8) | (flags & 0xFF);
    }

    /** The sending node. */
    public static int sourceNodeId(final int immediate)
    {
        return immediate >>> 16;
    }

    /** Credits piggybacked for the reverse direction. */
    public static int credits(final int immediate)
    {
        return (immediate >>> 8) & 0xFF;
    }

    /** The flag bits. */
    public static int flags(final int immediate)
    {
        return immediate & 0xFF;
    }
}
