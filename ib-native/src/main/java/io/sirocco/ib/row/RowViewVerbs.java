package io.sirocco.ib.row;

import java.lang.foreign.MemorySegment;

/**
 * The verbs resources of one view of the RDMA row transport as its set-up sees them: the registered table, one RC
 * queue pair per peer and the completion queue they share. {@link RdmaRowTransport#open} drives it: describe each
 * peer's queue pair ({@link #localInfo}), swap descriptions over the control exchange, {@link #connect} each peer,
 * then push through {@link #writer()}. The real implementation is {@link VerbsRowView} (hardware-verified only);
 * tests run the same set-up over an in-memory fabric.
 *
 * <p>Threading: the opener's thread during set-up, then the pushing thread; never two threads at once.
 */
public interface RowViewVerbs extends AutoCloseable
{
    /** The local table ({@code members * rowLengthBytes}, 4096-aligned, registered for remote writes). */
    MemorySegment table();

    /**
     * Creates the queue pair for {@code peer} (once; moved to INIT) and describes it together with the table: what
     * the peer needs to connect to it and write into our copy of its row.
     */
    RowRegionInfo localInfo(int peer);

    /** Connects the queue pair of {@code peer} to the peer's (RTR, then RTS) and remembers where to write. */
    void connect(int peer, RowRegionInfo remote);

    /** The writer over the connected queue pairs; valid after every peer is connected. */
    RowWriteVerbs writer();

    /** Frees the queue pairs, the completion queue, the registration and the device. Idempotent. */
    @Override
    void close();
}
