package io.sirocco.multicast.fault;

/**
 * Called at each {@link FaultPoint} a member reaches, on its predicate thread. An injector that throws
 * {@link InjectedCrash} stops the predicate thread right there, as a crash would: no further push, heartbeat or
 * delivery by this member.
 */
@FunctionalInterface
public interface FaultInjector
{
    /** Injects nothing. */
    FaultInjector NONE = (point, viewId, subgroup) ->
    {
    };

    /**
     * @param point    where the member is.
     * @param viewId   the view that is ending.
     * @param subgroup the subgroup concerned.
     */
    void at(FaultPoint point, long viewId, String subgroup);
}
