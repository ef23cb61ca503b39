package io.sirocco.multicast.predicate;

/** Test of a predicate, evaluated on the predicate thread against the SST; must not block or allocate. */
@FunctionalInterface
public interface Condition
{
    boolean holds();
}
