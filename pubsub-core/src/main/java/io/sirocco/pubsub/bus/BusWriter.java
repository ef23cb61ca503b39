package io.sirocco.pubsub.bus;

/** A writer's attachment to its topic's subgroup. Called by one thread at a time (the DataWriter's lock). */
public interface BusWriter extends AutoCloseable
{
    /**
     * Sends the message to every reader of the topic. Reliable readers that lag a full window behind block the call
     * for up to {@code timeoutNs}; best-effort readers lose the message instead.
     *
     * @return false when a reliable reader still had no room after {@code timeoutNs}.
     */
    boolean publish(BusMessage message, long timeoutNs);

    /** Sends the message to one reader only (TRANSIENT_LOCAL history replay); same blocking rule as publish. */
    boolean sendDirected(long readerGuid, BusMessage message, long timeoutNs);

    /** Waits until every reader has delivered everything published so far; false on timeout. */
    boolean awaitDelivered(long timeoutNs);

    @Override
    void close();
}
