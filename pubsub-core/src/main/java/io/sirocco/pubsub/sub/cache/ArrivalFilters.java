package io.sirocco.pubsub.sub.cache;

/**
 * The reader QoS policies that decide, per instance, whether an arriving sample is kept: OWNERSHIP EXCLUSIVE
 * ({@link OwnershipFilter}) first, then TIME_BASED_FILTER ({@link SeparationFilter}). A sample they drop is not lost
 * nor rejected: the application asked not to see it. Its writer still counts as a writer of the instance, so the
 * instance stays ALIVE while any of them lives.
 *
 * <p>Threads: as its two filters (the checks under the reader's lock; the changeable settings volatile).
 */
public final class ArrivalFilters
{
    private final SeparationFilter separation = new SeparationFilter();
    private final OwnershipFilter ownership;

    /** @param exclusive whether the reader's OWNERSHIP is EXCLUSIVE (not changeable). */
    public ArrivalFilters(final boolean exclusive)
    {
        this.ownership = new OwnershipFilter(exclusive);
    }

    /** TIME_BASED_FILTER's minimum separation in nanoseconds; 0 lets every sample through. */
    public void separation(final long nanos)
    {
        separation.separation(nanos);
    }

    /** The reader's DEADLINE period in nanoseconds (Long.MAX_VALUE: infinite), which bounds an owner's silence. */
    public void deadline(final long periodNs)
    {
        ownership.deadline(periodNs);
    }

    boolean admitsData(final ReaderInstance<?> instance, final long writerGuid, final int strength)
    {
        if (ownership.admits(instance, writerGuid, strength) && separation.admits(instance))
        {
            return true;
        }
        instance.addWriter(writerGuid);
        return false;
    }

    boolean admitsDispose(final ReaderInstance<?> instance, final long writerGuid)
    {
        return ownership.disposes(instance, writerGuid);
    }

    void released(final ReaderInstance<?> instance, final long writerGuid)
    {
        ownership.released(instance, writerGuid);
    }

    void strengthChanged(final ReaderInstance<?> instance, final long writerGuid, final int strength)
    {
        ownership.strengthChanged(instance, writerGuid, strength);
    }
}
