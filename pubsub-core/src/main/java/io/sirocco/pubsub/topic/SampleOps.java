package io.sirocco.pubsub.topic;

import io.sirocco.pubsub.bus.BusMessage;

/**
 * What a reader's cache needs from a topic type: the generated codec for ordinary topics, or a hand-written one
 * for the built-in topics, whose samples never travel as bytes.
 */
public interface SampleOps<T>
{
    T newSample();

    T copy(T sample);

    boolean isKeyed();

    /** Fills {@code reuse} (or a new sample when null) from the message payload. */
    T deserialize(BusMessage message, T reuse);
}
