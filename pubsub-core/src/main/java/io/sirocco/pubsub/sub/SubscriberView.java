package io.sirocco.pubsub.sub;

import io.sirocco.pubsub.core.GroupView;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.sub.SubscriberListener;

/**
 * A Subscriber as its DataReaders see it: the Subscriber a reader's {@code getParent()} returns, with the group
 * services of {@link GroupView}. {@code SubscriberImpl} implements it; {@code DataReaderImpl} holds this, never the
 * class, so the subscriber depends on its readers and not the other way round.
 */
public interface SubscriberView extends GroupView<SubscriberListener>, Subscriber
{
    /** The subscriber's GROUP-scope coherent sets (used by its readers only when PRESENTATION asks for them). */
    GroupCoherence coherentSets();
}
