package io.sirocco.transport.orb;

/** What a ring buffer's producers need from the connection that owns it. Called on producer threads. */
public interface RingSignals
{
    /** Frames became sendable: wake (or run) the consumer. */
    void framesCommitted();

    /**
     * The ring is full or the flow-control window is shut: wait a little ({@code attempt} counts the waits of this
     * frame from 0). May drain the ring itself. Throws if the connection closed meanwhile.
     */
    void awaitProgress(int attempt);
}
