package io.sirocco.pubsub.pub;

import java.util.ArrayDeque;

import io.sirocco.pubsub.bus.BusMessage;
import io.sirocco.pubsub.cache.InstanceKey;
import io.sirocco.pubsub.timer.DeadlineTrack;

/**
 * One instance of a DataWriter: its handle, key, a sample holding its key (for dispose and unregister messages), its
 * TRANSIENT_LOCAL history (the messages a late joiner is sent) and whether it is registered.
 *
 * <p>Threads: guarded by the writer's lock, like the {@link WriterInstances} table that holds it.
 */
final class WriterInstance<T>
{
    final long handle;
    final InstanceKey key;
    final T keyHolder;
    final ArrayDeque<BusMessage> history = new ArrayDeque<>();
    boolean registered;
    /** When it was last written, for the writer's DEADLINE. */
    final DeadlineTrack deadline = new DeadlineTrack();

    /** Samples of this instance sent to the durable log so far (its KEEP_LAST slot rotation); 0 when not durable. */
    long durableCount;

    WriterInstance(final long handle, final InstanceKey key, final T keyHolder)
    {
        this.handle = handle;
        this.key = key;
        this.keyHolder = keyHolder;
    }
}
