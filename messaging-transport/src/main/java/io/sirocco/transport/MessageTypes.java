package io.sirocco.transport;

/** Checks and names (type, subtype) pairs. Type 0 belongs to the transport itself. */
public final class MessageTypes
{
    private MessageTypes()
    {
    }

    static byte checkType(final int type)
    {
        if (type < 1 || type > 255)
        {
            throw new IllegalArgumentException("message type must be in [1, 255] (0 is reserved): " + type);
        }
        return (byte)type;
    }

    static byte checkSubtype(final int subtype)
    {
        if (subtype < 0 || subtype > 255)
        {
            throw new IllegalArgumentException("message subtype must be in [0, 255]: " + subtype);
        }
        return (byte)subtype;
    }

    /** The (type, subtype) pair as one int key: {@code type << 8 | subtype}. */
    public static int key(final int type, final int subtype)
    {
        return (type & 0xFF) << 8 | (subtype & 0xFF);
    }
}
