package io.sirocco.pubsub.sub.cache;

import io.sirocco.pubsub.core.DurationImpl;
import org.omg.dds.core.policy.DestinationOrder;
import org.omg.dds.core.policy.Ownership;
import org.omg.dds.sub.DataReaderQos;

/**
 * The reader QoS policies that decide, per instance, whether an arriving data sample is kept: LIFESPAN first (a
 * sample already expired is dropped, {@link LifespanFilter}), then DESTINATION_ORDER
 * BY_SOURCE_TIMESTAMP (DDS 1.4 §2.2.3.17: a sample whose source timestamp is older than that of the last one
 * kept for its instance is dropped, so the instance's value is the one written last, whatever the order of arrival),
 * then OWNERSHIP EXCLUSIVE ({@link OwnershipFilter}), then TIME_BASED_FILTER ({@link SeparationFilter}). A sample
 * they drop is not lost nor rejected: the application asked not to see it. Its writer still counts as a writer of
 * the instance, so the instance stays ALIVE while any of them lives.
 *
 * <p>Threads: the checks run under the reader's lock (no allocation); the changeable settings are volatile.
 */
public final class ArrivalFilters
{
    private final SeparationFilter separation = new SeparationFilter();
    private final OwnershipFilter ownership;
    private final boolean bySourceTime;

    /**
     * @param exclusive    whether the reader's OWNERSHIP is EXCLUSIVE (not changeable).
     * @param bySourceTime whether its DESTINATION_ORDER is BY_SOURCE_TIMESTAMP (not changeable).
     */
    public ArrivalFilters(final boolean exclusive, final boolean bySourceTime)
    {
        this.ownership = new OwnershipFilter(exclusive);
        this.bySourceTime = bySourceTime;
    }

    /** The filters of a reader of that QoS, its changeable settings applied. */
    public static ArrivalFilters of(final DataReaderQos qos)
    {
        final ArrivalFilters filters = new ArrivalFilters(qos.getOwnership().getKind() == Ownership.Kind.EXCLUSIVE,
            qos.getDestinationOrder().getKind() == DestinationOrder.Kind.BY_SOURCE_TIMESTAMP);
        filters.apply(qos);
        return filters;
    }

    /** {@code setQos}: the changeable policies the filters apply, TIME_BASED_FILTER and DEADLINE (for OWNERSHIP). */
    public void apply(final DataReaderQos qos)
    {
        separation(DurationImpl.toNanos(qos.getTimeBasedFilter().getMinimumSeparation()));
        deadline(DurationImpl.toNanos(qos.getDeadline().getPeriod()));
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

    /** @param expiresNs when the sample's LIFESPAN ends ({@link LifespanFilter#expiry}). */
    boolean admitsData(final ReaderInstance<?> instance, final long writerGuid, final int strength,
        final long sourceTimeNs, final long expiresNs)
    {
        if (LifespanFilter.expiredNow(expiresNs))
        {
            instance.addWriter(writerGuid);
            return false;
        }
        final boolean inOrder = !bySourceTime || !instance.sourceOrdered || sourceTimeNs - instance.lastSourceNs >= 0;
        if (inOrder && ownership.admits(instance, writerGuid, strength) && separation.admits(instance))
        {
            instance.sourceOrdered = true;
            instance.lastSourceNs = sourceTimeNs;
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
