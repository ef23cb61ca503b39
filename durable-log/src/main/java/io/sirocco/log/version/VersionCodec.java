package io.sirocco.log.version;

/**
 * Packs a version record (epoch, version, tombstone) into one long that orders like the record:
 * {@code epoch << 33 | version << 1 | tombstone}. Larger means newer. Stateless.
 */
public final class VersionCodec
{
    private VersionCodec()
    {
    }

    public static long pack(final int epoch, final int version, final boolean tombstone)
    {
        return ((long)epoch << 33) | ((version & 0xFFFF_FFFFL) << 1) | (tombstone ? 1 : 0);
    }

    public static int epoch(final long packed)
    {
        return (int)(packed >>> 33);
    }

    public static int version(final long packed)
    {
        return (int)(packed >>> 1);
    }

    public static boolean tombstone(final long packed)
    {
        return (packed & 1) != 0;
    }

    /** Whether {@code a}'s (epoch, version) is strictly older than {@code b}'s, ignoring the tombstone bit. */
    public static boolean older(final long a, final long b)
    {
        return (a >>> 1) < (b >>> 1);
    }
}
