package io.sirocco.pubsub.sub.cache;

import org.omg.dds.core.status.SampleRejectedStatus;

/**
 * Where a {@link ReaderHistoryCache} reports a sample it refused for a resource limit. Called on the thread that
 * holds the reader's lock (the delivery thread, or the discovery thread injecting a built-in sample).
 */
public interface RejectionSink
{
    /** A sample was rejected: {@code instanceHandle} is 0 when no instance was made for it. */
    void onRejected(SampleRejectedStatus.Kind reason, long instanceHandle);
}
