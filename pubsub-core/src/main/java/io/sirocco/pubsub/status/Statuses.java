package io.sirocco.pubsub.status;

/**
 * Immutable snapshots of every communication status; entities build one when the application reads a status. The
 * snapshots are declared by the entity they belong to, in {@link ReaderStatuses}, {@link WriterStatuses} and {@link
 * TopicStatuses}; this class gathers them under the one name callers use ({@code Statuses.SampleLostStatusImpl}),
 * since member classes are inherited from interfaces. Holds no state.
 */
public final class Statuses implements ReaderStatuses, WriterStatuses, TopicStatuses
{
    private Statuses()
    {
    }
}
