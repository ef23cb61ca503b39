package io.sirocco.pubsub.bus;

/**
 * What a reader endpoint gives the bus: called on the reader's own delivery thread, never concurrently, so a slow
 * handler delays only its own reader.
 */
public interface DeliveryHandler
{
    /** One delivered message; valid only during the call. */
    void onMessage(BusMessage message);

    /** {@code count} messages were dropped for this (best-effort) reader since the last call, because it lagged. */
    void onLost(int count);

    /**
     * Whether the offering thread may run this handler itself when the window is empty, skipping the hand-off to the
     * delivery thread: true only when the handler's work is short and bounded (no application listener to call).
     */
    default boolean inlineSafe()
    {
        return false;
    }

    /**
     * Whether a full best-effort window should drop its oldest undelivered sample rather than the newest: true for a
     * KEEP_LAST reader, which wants the latest values; false (keep the prefix) for KEEP_ALL. Read once, when the
     * window is created.
     */
    default boolean keepsNewest()
    {
        return false;
    }

    /** Called once after a batch of {@link #onMessage} calls, so the reader can notify listeners once per batch. */
    void onBatchEnd();
}
