package io.sirocco.pubsub.bus;

/** A reader's attachment to its topic's subgroup; closing it stops its delivery thread. */
public interface BusReader extends AutoCloseable
{
    @Override
    void close();
}
