package io.sirocco.multicast.spi;

/**
 * Told by a {@link RowTransport} that it gave up on a member of the view: its pushes to that member failed or did not
 * complete in time (an RDMA error completion or completion deadline, for instance). The transport has already frozen
 * the member's row; the membership layer treats the report as a suspicion of that member.
 *
 * <p><b>Threading.</b> Called on whatever thread the transport detects the failure on, usually the pushing thread in
 * the middle of a push or a {@link RowTransport#flush()}. An implementation must only record the report (a bit in an
 * atomic mask, say): it must not call back into the transport, nor block.
 */
@FunctionalInterface
public interface RowSuspicionListener
{
    /**
     * @param rank   the member's rank in the view of the transport that reports.
     * @param reason what failed, for the log (the verbs status, the deadline, ...).
     */
    void onSuspected(int rank, String reason);
}
