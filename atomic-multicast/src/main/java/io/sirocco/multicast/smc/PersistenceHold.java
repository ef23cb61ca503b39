package io.sirocco.multicast.smc;

/**
 * The persistence hooks of one subgroup: the durable layer reports what this member persisted
 * ({@link #persisted(long)}), the predicate thread publishes it in {@code PERSISTED}, and with a hold a view change
 * waits until every live member persisted what this member delivered.
 *
 * <p><b>Threads.</b> {@link #persisted(long)} and {@link #holdForPersistence(boolean)} are called from any thread and
 * write volatile fields; everything else runs on the predicate thread, which stores {@code PERSISTED} with release
 * semantics before pushing it. Other members' {@code PERSISTED} are read with acquire semantics.
 */
final class PersistenceHold extends SubgroupSlots
{
    /** Predicate thread: the count last published. */
    private long persistedPublished;
    private volatile long persistedLocal;
    private volatile boolean persistenceHold;

    PersistenceHold(final SubgroupSlots slots)
    {
        super(slots);
    }

    /** Predicate thread: publishes a newer local persisted count. @return whether it published one. */
    boolean publishPersisted()
    {
        final long p = persistedLocal;
        if (p > persistedPublished)
        {
            persistedPublished = p;
            table.setRelease(myRank, offPersisted, p);
            transport.pushCounters(offPersisted, 1);
            transport.flush();
            return true;
        }
        return false;
    }

    /** @return whether every live member persisted {@code delivered} (true when no hold is set). */
    boolean persistedEverywhere(final boolean[] live, final long delivered)
    {
        if (!persistenceHold)
        {
            return true;
        }
        publishPersisted();
        for (final int m : memberRanks)
        {
            if (live[m] && table.getAcquire(m, offPersisted) < delivered)
            {
                return false;
            }
        }
        return true;
    }

    /** Any thread: this member persisted every delivered message with {@code seq < count}. */
    void persisted(final long count)
    {
        persistedLocal = count;
        doorbell.run();
    }

    /** Any thread: makes the view change wait for persistence. */
    void holdForPersistence(final boolean hold)
    {
        persistenceHold = hold;
    }

    /** @return the minimum of the members' persisted counts. */
    long persistedByAll()
    {
        long min = Long.MAX_VALUE;
        for (final int m : memberRanks)
        {
            min = Math.min(min, table.getAcquire(m, offPersisted));
        }
        return min;
    }
}
