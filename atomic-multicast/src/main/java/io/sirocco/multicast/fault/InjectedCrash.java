package io.sirocco.multicast.fault;

/**
 * Thrown by a {@link FaultInjector} to crash a member where it stands: it unwinds the predicate thread, which stops
 * (the member then looks crashed to the others: its heartbeat stops).
 */
public final class InjectedCrash extends Error
{
    private static final long serialVersionUID = 1L;

    /**
     * @param point    where the crash was injected.
     * @param memberId the crashed member (for the log).
     */
    public InjectedCrash(final FaultPoint point, final long memberId)
    {
        super("injected crash of member " + memberId + " at " + point, null, false, false);
    }
}
