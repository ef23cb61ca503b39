package io.sirocco.ib.row;

/**
 * Told when the RDMA path gives up on a peer (error completion, post failure, or a completion deadline passed), so
 * the membership layer can suspect it. Called on the pushing thread, at most once per peer per view.
 */
@FunctionalInterface
public interface SuspicionListener
{
    void onSuspected(int rank, String reason);
}
