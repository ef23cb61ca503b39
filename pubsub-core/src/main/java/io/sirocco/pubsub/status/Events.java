package io.sirocco.pubsub.status;

/**
 * The listener events of the PSM: each carries its source entity and a status snapshot. The events are declared by
 * the entity that raises them, in {@link ReaderEvents}, {@link WriterEvents} and {@link TopicEvents}; this class
 * gathers them under the one name callers use ({@code Events.DataAvailableEventImpl}), since member classes are
 * inherited from interfaces. Holds no state.
 */
public final class Events implements ReaderEvents, WriterEvents, TopicEvents
{
    private Events()
    {
    }
}
