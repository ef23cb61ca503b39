package io.sirocco.multicast.spi.tcp;

import io.sirocco.multicast.spi.RowSuspicionListener;
import io.sirocco.transport.ConnectionListener;
import io.sirocco.transport.MessagingService;

/**
 * Crash detection on a TCP reset: when the peer of a view's member ends its row connection (EOF, connection reset,
 * or a failed write: its process died or closed the socket), the member is reported to the view's
 * {@link RowSuspicionListener} at once, instead of waiting for the heartbeat timeout (2 s by default) while the
 * survivors' reliable streams stall on it. A connection closed by a local decision (shutdown, eviction, bad input)
 * is not a report. Each rank is reported at most once (the listener keeps its own mask too).
 *
 * <p><b>Threads.</b> {@link #onConnectionClosed(int, String, boolean)} runs on the endpoint's transport thread that
 * read the end of the stream; it only reads final arrays and calls the listener, which records the report (see
 * {@link RowSuspicionListener}). Registered for one view, removed when the view's transport closes.
 */
final class PeerLossReporter implements ConnectionListener
{
    /** The reason's prefix, so a reader of the log (or a test) sees which path suspected the member. */
    static final String REASON = "tcp row connection ended by the peer: ";

    private final MessagingService service;
    private final int[] nodeIds;
    private final boolean[] served;
    private final int myRank;
    private final RowSuspicionListener listener;

    private PeerLossReporter(final MessagingService service, final int[] nodeIds, final boolean[] served,
        final int myRank, final RowSuspicionListener listener)
    {
        this.service = service;
        this.nodeIds = nodeIds;
        this.served = served;
        this.myRank = myRank;
        this.listener = listener;
    }

    /**
     * Starts reporting for a view.
     *
     * @param nodeIds the members' node ids by rank (not modified).
     * @param served  the ranks the view's transport pushes to (not modified); only those are reported.
     */
    static PeerLossReporter register(final MessagingService service, final int[] nodeIds, final boolean[] served,
        final int myRank, final RowSuspicionListener listener)
    {
        final PeerLossReporter reporter = new PeerLossReporter(service, nodeIds, served, myRank, listener);
        service.addConnectionListener(reporter);
        return reporter;
    }

    void unregister()
    {
        service.removeConnectionListener(this);
    }

    @Override
    public void onConnectionClosed(final int nodeId, final String reason)
    {
        // a local decision: the heartbeat timeout decides
    }

    @Override
    public void onConnectionClosed(final int nodeId, final String reason, final boolean peerEnded)
    {
        if (!peerEnded)
        {
            return;
        }
        for (int rank = 0; rank < nodeIds.length; rank++)
        {
            if (rank != myRank && served[rank] && nodeIds[rank] == nodeId)
            {
                listener.onSuspected(rank, REASON + reason);
            }
        }
    }
}
