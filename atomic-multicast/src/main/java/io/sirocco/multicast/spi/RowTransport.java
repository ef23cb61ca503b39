package io.sirocco.multicast.spi;

import io.sirocco.multicast.predicate.IdleWait;
import java.lang.foreign.MemorySegment;

/**
 * Moves byte ranges of this member's SST row into the other members' copies of that row: the one-sided write of
 * Derecho's SST, whatever carries it (shared memory, TCP frames, RDMA writes).
 *
 * <p><b>Threading.</b> Exactly one thread pushes: the group's predicate thread. Implementations need not be safe for
 * concurrent pushes. {@link #freeze(int)} and {@link #close()} may be called from that same thread only.
 *
 * <p><b>Ordering contract (what the protocol relies on).</b> For one target member, the effects of the calls become
 * visible in call order: if the target sees the effect of a later call (typically a {@link #pushGuard} of a counter),
 * it sees every earlier call's bytes too. This is RDMA's per-QP write ordering, TCP's FIFO applied in order, and on
 * shared memory a release store. Within one {@link #pushBytes} no order is promised between bytes, so a reader never
 * polls inside a data range; it polls a counter pushed by {@link #pushCounters} or {@link #pushGuard}, which are
 * written per aligned 8-byte word with release semantics at the target (never torn).
 *
 * <p><b>Snapshot rule.</b> The caller reads a guard counter first, then pushes the data it covers, then pushes the
 * guard with the value it read ({@link #pushGuard}): the guard never covers data that was not yet copied.
 * {@link #pushBytes} must read the source bytes before it returns, or (RDMA) before any later guard is posted.
 *
 * <p>Offsets are byte offsets inside a row ({@code 0 <= rowOffset < rowLengthBytes}); the target location is the
 * same offset inside the target's copy of <em>this member's</em> row.
 */
public interface RowTransport extends AutoCloseable
{
    /**
     * This member's view of the whole table: {@code members * rowLengthBytes} bytes, row {@code r} at offset
     * {@code r * rowLengthBytes}. This member writes only its own row; the others are written by the transport.
     *
     * @return the local table, valid until {@link #close()}.
     */
    MemorySegment table();

    /**
     * Whether the local table is the very memory the other members read (shared memory). When true, the pushes are
     * only release stores and doorbells, and a reader can see a slot while its owner rewrites it, which the lossy
     * mode's seqlock check handles.
     *
     * @return true when rows are shared in place rather than copied.
     */
    boolean sharesRows();

    /**
     * Pushes {@code lengthBytes} bytes of this member's row starting at {@code rowOffset} to every live member.
     *
     * @param rowOffset   offset inside the row.
     * @param lengthBytes number of bytes.
     */
    void pushBytes(long rowOffset, long lengthBytes);

    /**
     * Pushes {@code count} aligned counters of this member's row, each read with acquire semantics here and written
     * with release semantics at the target, in ascending address order.
     *
     * @param rowOffset 8-byte aligned offset inside the row.
     * @param count     number of 8-byte counters.
     */
    void pushCounters(long rowOffset, int count);

    /**
     * Pushes one counter with a value the caller snapshotted (see the snapshot rule above), written with release
     * semantics at the target after everything pushed before it.
     *
     * @param rowOffset 8-byte aligned offset inside the row.
     * @param value     the value to publish.
     */
    void pushGuard(long rowOffset, long value);

    /**
     * Stops pushing to a member (it was suspected). Idempotent.
     *
     * @param rank the member's rank in the view.
     */
    void freeze(int rank);

    /**
     * Registers the listener told when this transport gives up on a member (see {@link RowSuspicionListener}). Called
     * once per view by the membership layer, right after {@link RowTransportProvider#open}, on the pushing thread. A
     * transport that can detect failed pushes must report every failure to the listener (reports made before the
     * listener was registered are replayed to it); the default, for transports that never detect one (shm, local,
     * where the heartbeat timeout does that job), ignores the listener. The tcp transport reports a peer that ends its
     * row connection (a reset or EOF: its process died), from the registration on.
     *
     * @param listener receives the rank and the reason, at most once per member per view.
     */
    default void suspicionListener(final RowSuspicionListener listener)
    {
    }

    /**
     * Ends a group of pushes issued by one trigger: a transport that batches (TCP frames) sends now. Shared memory
     * may use it to ring doorbells.
     */
    default void flush()
    {
    }

    /**
     * The predicate thread finished a pass over every trigger: a transport that defers {@link #flush()}es to coalesce
     * one pass's pushes (TCP frames) sends them now. Called once per pass per open view, after the view's triggers.
     * The default does nothing.
     */
    default void endOfPass()
    {
    }

    /**
     * The pass-lock holder is about to run several passes in a row (an inline run, see {@code PredicateEngine}): until
     * {@link #endPassRun()} a transport that coalesces may keep what {@link #endOfPass()} would send and send it all
     * at {@link #endPassRun()}. The default does nothing.
     */
    default void beginPassRun()
    {
    }

    /** The run begun by {@link #beginPassRun()} ended (same thread, still holding the pass lock): send what was kept. */
    default void endPassRun()
    {
    }

    /**
     * Whether every push landing in the local table runs the context's {@code received} hook on a thread of this
     * transport (tcp frames), so the predicate thread need not poll the table for other members' pushes. The default,
     * for transports whose peers write the table directly (shared memory, RDMA), is false.
     *
     * @return true when arrivals are signalled.
     */
    default boolean eventDriven()
    {
        return false;
    }

    /**
     * What the predicate thread of this member may sleep on while idle so that the other members' pushes wake it
     * ({@link io.sirocco.multicast.predicate.IdleWait}; on shm a futex word in the shared table), or null when pushes
     * arrive unannounced (the thread then parks for bounded times and polls). Valid until {@link #close()}.
     *
     * @return the bell, or null.
     */
    default IdleWait idleWait()
    {
        return null;
    }

    /**
     * Number of push operations issued so far (each call to a push method counts once per target member), for the
     * benchmark's batching figures.
     *
     * @return the number of pushes.
     */
    long pushCount();

    /**
     * Push operations issued so far to one target (same unit as {@link #pushCount()}: for tcp a frame), so that a
     * report or a test can tell which path a peer really received this member's row by. Read from the pushing
     * thread, or after it stopped pushing.
     *
     * @param rank the target's rank in the view.
     * @return the pushes to it, or -1 when this transport does not count per target.
     */
    default long pushCount(final int rank)
    {
        return -1;
    }

    /** Releases the table and connections of this view. */
    @Override
    void close();
}
