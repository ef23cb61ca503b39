package io.sirocco.multicast.smc;

/**
 * Counters of one subgroup in one view, for the benchmark's batch figures. Written by the predicate thread only;
 * other threads may read them racily (values are monotonic, aligned longs are never torn).
 */
public final class SubgroupStats
{
    public long sendBatches;
    public long sentMessages;
    public long receiveBatches;
    public long receivedMessages;
    public long deliverBatches;
    public long deliveredMessages;
    public long nullsSent;
    public long lostMessages;

    public void addTo(final SubgroupStats total)
    {
        total.sendBatches += sendBatches;
        total.sentMessages += sentMessages;
        total.receiveBatches += receiveBatches;
        total.receivedMessages += receivedMessages;
        total.deliverBatches += deliverBatches;
        total.deliveredMessages += deliveredMessages;
        total.nullsSent += nullsSent;
        total.lostMessages += lostMessages;
    }

    public static double mean(final long items, final long batches)
    {
        return batches == 0 ? 0.0 : (double)items / batches;
    }
}
