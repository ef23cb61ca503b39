package io.sirocco.pubsub.cache;

/**
 * The 16-byte DDS KeyHash of an instance as two longs: the key of the instance maps of writers and readers. A
 * writer or reader keeps one mutable probe for look-ups (no allocation per sample) and stores immutable copies.
 */
public final class InstanceKey
{
    private long hi;
    private long lo;

    public InstanceKey()
    {
    }

    public InstanceKey(final long hi, final long lo)
    {
        this.hi = hi;
        this.lo = lo;
    }

    public long hi()
    {
        return hi;
    }

    public long lo()
    {
        return lo;
    }

    public InstanceKey set(final long hi, final long lo)
    {
        this.hi = hi;
        this.lo = lo;
        return this;
    }

    /** Reads a KeyHash (big-endian 16 bytes). */
    public InstanceKey set(final byte[] keyHash16)
    {
        long h = 0;
        long l = 0;
        for (int i = 0; i < 8; i++)
        {
            h = (h << 8) | (keyHash16[i] & 0xFF);
            l = (l << 8) | (keyHash16[i + 8] & 0xFF);
        }
        hi = h;
        lo = l;
        return this;
    }

    public InstanceKey copy()
    {
        return new InstanceKey(hi, lo);
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof InstanceKey k && k.hi == hi && k.lo == lo;
    }

    @Override
    public int hashCode()
    {
        return Long.hashCode(hi * 31 + lo);
    }

    @Override
    public String toString()
    {
        return String.format("%016x%016x", hi, lo);
    }
}
