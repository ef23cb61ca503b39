package io.sirocco.pubsub.timer;

/**
 * The DEADLINE bookkeeping of one instance (DDS 1.4 §2.2.3.7): when it was last updated (a write on a DataWriter, a
 * sample's arrival on a DataReader) and up to when its misses were counted. Each whole period without an update is
 * one miss; an update starts a new period.
 *
 * <p>Threads: guarded by the owning writer's or reader's lock; {@link #updated} runs on the data path (no
 * allocation), {@link #missed} on the participant's timer thread, holding that lock.
 */
public final class DeadlineTrack
{
    private long updatedNs = System.nanoTime();
    private long countedToNs = Long.MIN_VALUE;

    /** A write or an arrival. */
    public void updated(final long nowNs)
    {
        updatedNs = nowNs;
    }

    /** When the current period ends: a period after the later of the last update and the last counted miss. */
    public long dueNs(final long periodNs)
    {
        final long from = countedToNs == Long.MIN_VALUE || updatedNs - countedToNs > 0 ? updatedNs : countedToNs;
        return from + periodNs;
    }

    /** The number of whole periods that ended by {@code nowNs} since the last check; counts them as missed. */
    public int missed(final long nowNs, final long periodNs)
    {
        final long due = dueNs(periodNs);
        if (nowNs - due < 0)
        {
            return 0;
        }
        final long periods = 1 + (nowNs - due) / periodNs;
        countedToNs = due + (periods - 1) * periodNs;
        return (int)Math.min(Integer.MAX_VALUE, periods);
    }
}
