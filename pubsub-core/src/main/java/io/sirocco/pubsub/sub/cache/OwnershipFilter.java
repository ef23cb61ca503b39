package io.sirocco.pubsub.sub.cache;

/**
 * A DataReader's OWNERSHIP EXCLUSIVE (DDS 1.4 §2.2.3.9): per instance, only the owner's samples are kept. The owner
 * is the strongest writer (OWNERSHIP_STRENGTH; on a tie the lower GUID, unsigned) among those that wrote the
 * instance while the owner was alive. Ownership passes when the owner is gone ({@link #released}: unmatched, its
 * liveliness lost, or it unregistered the instance), when the owner missed the reader's DEADLINE for the instance
 * (any writer's next sample may then take it), and when a stronger writer writes. A SHARED reader keeps everything.
 *
 * <p>Threads: {@link #admits} and {@link #released} run under the reader's lock (delivery, discovery and timer
 * threads); no allocation. The deadline period is changeable ({@code setQos}) from any thread, hence volatile.
 */
final class OwnershipFilter
{
    private static final long NO_OWNER = 0;
    private final boolean exclusive;
    private volatile long deadlineNs = Long.MAX_VALUE;

    OwnershipFilter(final boolean exclusive)
    {
        this.exclusive = exclusive;
    }

    /** The reader's DEADLINE period (Long.MAX_VALUE: infinite): an owner silent for longer loses the instance. */
    void deadline(final long periodNs)
    {
        deadlineNs = periodNs;
    }

    /** Whether a data sample of {@code writerGuid} (of that strength) for {@code instance} is kept. */
    boolean admits(final ReaderInstance<?> instance, final long writerGuid, final int strength)
    {
        if (!exclusive)
        {
            return true;
        }
        final long nowNs = System.nanoTime();
        final long owner = instance.owner;
        if (owner == writerGuid || owner == NO_OWNER || stronger(strength, writerGuid, instance.ownerStrength, owner) ||
            nowNs - instance.ownerHeardNs > deadlineNs)
        {
            instance.owner = writerGuid;
            instance.ownerStrength = strength;
            instance.ownerHeardNs = nowNs;
            return true;
        }
        return false;
    }

    /** Whether a dispose of {@code writerGuid} applies: only the owner's (or any, when there is no owner). */
    boolean disposes(final ReaderInstance<?> instance, final long writerGuid)
    {
        return !exclusive || instance.owner == NO_OWNER || instance.owner == writerGuid;
    }

    /** The writer no longer writes {@code instance}: if it owned it, nobody does until the next sample. */
    void released(final ReaderInstance<?> instance, final long writerGuid)
    {
        if (instance.owner == writerGuid)
        {
            instance.owner = NO_OWNER;
        }
    }

    /** The writer's OWNERSHIP_STRENGTH changed ({@code setQos} on it): the instances it owns rank it anew. */
    void strengthChanged(final ReaderInstance<?> instance, final long writerGuid, final int strength)
    {
        if (instance.owner == writerGuid)
        {
            instance.ownerStrength = strength;
        }
    }

    private static boolean stronger(final int strength, final long guid, final int ownerStrength, final long owner)
    {
        return strength > ownerStrength || strength == ownerStrength && Long.compareUnsigned(guid, owner) < 0;
    }
}
