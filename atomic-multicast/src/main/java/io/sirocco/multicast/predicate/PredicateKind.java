package io.sirocco.multicast.predicate;

/** When a registered predicate's trigger runs. */
public enum PredicateKind
{
    /** Trigger runs once, the first time the predicate holds, then the pair is removed. */
    ONE_TIME,
    /** Trigger runs on every pass in which the predicate holds. */
    RECURRENT,
    /** Trigger runs when the predicate goes from false to true. */
    TRANSITION
}
