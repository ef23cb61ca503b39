package io.sirocco.pubsub.pub;

import io.sirocco.pubsub.core.GroupView;
import org.omg.dds.pub.Publisher;
import org.omg.dds.pub.PublisherListener;

/**
 * A Publisher as its DataWriters see it: the Publisher a writer's {@code getParent()} returns, with the group services
 * of {@link GroupView}. {@code PublisherImpl} implements it; {@code DataWriterImpl} holds this, never the class, so
 * the publisher depends on its writers and not the other way round.
 */
public interface PublisherView extends GroupView<PublisherListener>, Publisher
{
    /**
     * The number of the coherent set open on this publisher (between the outermost {@code beginCoherentChanges} and
     * its {@code endCoherentChanges}), or 0 when none is open or PRESENTATION groups nothing (coherent_access off, or
     * INSTANCE scope). A writer marks each message it sends while this is not 0. Any thread (a volatile read).
     */
    long openCoherentSet();
}
