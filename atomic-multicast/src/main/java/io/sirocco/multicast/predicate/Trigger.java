package io.sirocco.multicast.predicate;

/** Action of a predicate. Runs on the predicate thread. */
@FunctionalInterface
public interface Trigger
{
    /**
     * @return true when it made progress (moved a counter, delivered, pushed): the engine keeps spinning; false lets
     * it back off towards parking.
     */
    boolean fire();
}
