package io.sirocco.pubsub.rtps.discovery;

import java.security.SecureRandom;

/**
 * A participant's 12-byte GuidPrefix as its first 8 octets ({@code high}, big-endian) and last 4 ({@code low}).
 * Sirocco's prefixes start with its vendor id, as the spec recommends, then random octets.
 */
public record GuidPrefix(long high, int low)
{
    private static final SecureRandom RANDOM = new SecureRandom();

    /** A fresh prefix starting with {@code vendorId}. */
    public static GuidPrefix random(final int vendorId)
    {
        final long high = ((long) vendorId << 48) | (RANDOM.nextLong() & 0x0000_ffff_ffff_ffffL);
        return new GuidPrefix(high, RANDOM.nextInt());
    }

    /** The 16-octet GUID of entity {@code entityId} of this participant. */
    public byte[] guid(final int entityId)
    {
        final byte[] guid = new byte[16];
        for (int i = 0; i < 8; i++)
        {
            guid[i] = (byte) (high >>> (56 - 8 * i));
        }
        for (int i = 0; i < 4; i++)
        {
            guid[8 + i] = (byte) (low >>> (24 - 8 * i));
            guid[12 + i] = (byte) (entityId >>> (24 - 8 * i));
        }
        return guid;
    }

    @Override
    public String toString()
    {
        return String.format("%016x:%08x", high, low);
    }
}
