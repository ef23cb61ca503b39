package io.sirocco.pubsub.sub.cache;

/**
 * LIFESPAN on the reader side (DDS 1.4 §2.2.3.16): a data sample expires at its source timestamp plus its writer's
 * lifespan duration (announced in the writer's {@code EndpointRecord}). A sample already expired when it arrives is
 * not stored ({@link ArrivalFilters}); one that expires in the cache is removed when a read, a take or a condition
 * looks at it, lazily: no timer and no thread per reader. Lifecycle changes (dispose, unregister) do not expire.
 *
 * <p>Clocks: the source timestamp is the writer's wall clock and the expiry is compared with this reader's wall clock
 * (millisecond precision, read without allocating), so, as the spec assumes, the hosts' clocks should agree.
 * Stateless; any thread.
 */
public final class LifespanFilter
{
    /** The expiry of a sample that never expires (an infinite lifespan). */
    public static final long NEVER = Long.MAX_VALUE;

    private LifespanFilter()
    {
    }

    /** When a sample stamped {@code sourceTimeNs} (epoch ns) expires under {@code lifespanNs}; {@link #NEVER}. */
    public static long expiry(final long sourceTimeNs, final long lifespanNs)
    {
        if (lifespanNs == Long.MAX_VALUE || sourceTimeNs > Long.MAX_VALUE - lifespanNs)
        {
            return NEVER;
        }
        return sourceTimeNs + lifespanNs;
    }

    /** Now, on this host's wall clock, in nanoseconds since the epoch. */
    public static long nowNs()
    {
        return System.currentTimeMillis() * 1_000_000L;
    }

    /** Whether a sample expiring at {@code expiresNs} has expired at {@code nowNs}. */
    public static boolean expired(final long expiresNs, final long nowNs)
    {
        return expiresNs != NEVER && nowNs >= expiresNs;
    }

    /** Whether a data sample expiring at {@code expiresNs} has expired now (the clock is read only when finite). */
    public static boolean expiredNow(final long expiresNs)
    {
        return expiresNs != NEVER && expired(expiresNs, nowNs());
    }

    /** Whether a cache entry has expired at {@code nowNs}; an invalid sample (a state change) never does. */
    static boolean expired(final SampleEntry<?> entry, final long nowNs)
    {
        return entry.valid && expired(entry.expiresNs, nowNs);
    }
}
