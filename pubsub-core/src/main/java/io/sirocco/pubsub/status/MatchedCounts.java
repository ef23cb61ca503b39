package io.sirocco.pubsub.status;

import io.sirocco.pubsub.core.HandleImpl;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.status.PublicationMatchedStatus;
import org.omg.dds.core.status.SubscriptionMatchedStatus;

/**
 * The counters behind a writer's PublicationMatchedStatus or a reader's SubscriptionMatchedStatus.
 *
 * <p>Not thread-safe: the owning DataWriter or DataReader guards it with its status lock (discovery thread, the
 * reader's delivery thread and application threads).
 */
public final class MatchedCounts
{
    private int total;
    private int totalChange;
    private int current;
    private int currentChange;
    private long last;

    /** A remote endpoint matched. */
    public void matched(final long peerGuid)
    {
        total++;
        totalChange++;
        current++;
        currentChange++;
        last = peerGuid;
    }

    /** A matched remote endpoint is gone. */
    public void unmatched(final long peerGuid)
    {
        current--;
        currentChange--;
        last = peerGuid;
    }

    /** The endpoints matched now. */
    public int current()
    {
        return current;
    }

    /** The GUID of the endpoint that matched or left last (0 before any). */
    public long last()
    {
        return last;
    }

    /** The writer's status; resets the change counts. */
    public PublicationMatchedStatus publication(final ServiceEnvironment env)
    {
        final PublicationMatchedStatus status = new Statuses.PublicationMatchedStatusImpl(env, total, totalChange,
            current, currentChange, new HandleImpl(env, last));
        resetChanges();
        return status;
    }

    /** The reader's status; resets the change counts. */
    public SubscriptionMatchedStatus subscription(final ServiceEnvironment env)
    {
        final SubscriptionMatchedStatus status = new Statuses.SubscriptionMatchedStatusImpl(env, total, totalChange,
            current, currentChange, new HandleImpl(env, last));
        resetChanges();
        return status;
    }

    private void resetChanges()
    {
        totalChange = 0;
        currentChange = 0;
    }
}
