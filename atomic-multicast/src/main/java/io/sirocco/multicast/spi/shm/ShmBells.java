package io.sirocco.multicast.spi.shm;

import io.sirocco.multicast.predicate.IdleWait;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The doorbells of one shared table: one 64-byte line per member after the rows, holding a 32-bit {@code value} (the
 * futex word) and a 32-bit {@code armed} flag. A member's predicate thread sleeps on its own line ({@link #own()}, an
 * {@link IdleWait}); a member that pushed rings the lines of the others ({@link #ring(int)}). The protocol is
 * {@link IdleWait}'s: the sleeper stores {@code armed = 1}, fences, reads {@code value} and looks for work once more; a
 * ringer, after its release stores and a fence, swaps {@code armed} to 0 and, if it was 1, increments {@code value} and
 * calls {@code FUTEX_WAKE}. At most one ringer per sleep makes the system call.
 *
 * <p>Fallback: when {@link Futex#available()} is false (not Linux, or a futex call failed) the sleeper's
 * {@link IdleWait#await} returns false and the predicate thread parks for its bounded time as before; ringing then
 * only touches memory.
 *
 * <p>Threads: a line's {@code armed}/{@code value} are written by its owner's sleeping thread and by any ringer, only
 * with atomic operations. {@link #ring(int)} is called by the pushing thread (the pass-lock holder) or any thread that
 * calls the owner's {@link IdleWait#ring()} (an application thread's commit doorbell); each caller passes its own
 * errno buffer, so no state is shared but the lines.
 */
final class ShmBells
{
    /** Bytes per member: a cache line, so a ringer's swap does not bounce another member's line. */
    static final long LINE = 64;
    private static final long VALUE = 0;
    private static final long ARMED = 4;
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

    private final MemorySegment lines;
    private final int members;

    /**
     * @param lines   {@code members * LINE} bytes of the shared mapping, zero-filled at creation.
     * @param members number of members.
     */
    ShmBells(final MemorySegment lines, final int members)
    {
        this.lines = lines;
        this.members = members;
    }

    /** Bytes the bells of {@code members} members take. */
    static long length(final int members)
    {
        return members * LINE;
    }

    /**
     * Wakes member {@code rank}'s predicate thread if it sleeps (or is about to); after the caller's release stores.
     *
     * @param rank  the member.
     * @param errno the calling thread's errno buffer ({@link Futex#errnoBuffer()}).
     * @return whether it was armed (a wake was sent).
     */
    boolean ring(final int rank, final MemorySegment errno)
    {
        final long at = rank * LINE;
        VarHandle.fullFence();
        if ((int)INT.getVolatile(lines, at + ARMED) == 0 || (int)INT.getAndSet(lines, at + ARMED, 0) == 0)
        {
            return false;
        }
        INT.getAndAdd(lines, at + VALUE, 1);
        Futex.wake(lines.address() + at + VALUE, Integer.MAX_VALUE, errno);
        return true;
    }

    /** Whether member {@code rank} is armed (tests). */
    boolean armed(final int rank)
    {
        return (int)INT.getVolatile(lines, rank * LINE + ARMED) != 0;
    }

    int members()
    {
        return members;
    }

    /**
     * The sleeping side of member {@code rank}'s line, for its predicate thread.
     *
     * @param rank the member.
     * @return its {@link IdleWait}.
     */
    IdleWait own(final int rank)
    {
        return new Own(rank);
    }

    private final class Own implements IdleWait
    {
        private final long at;
        private final int rank;
        /** Sleeper thread only. */
        private final Futex.Timeout timeout = new Futex.Timeout();
        /** Threads that call {@link #ring()} here (local doorbell rings) share one buffer: errno is only a diagnostic. */
        private final MemorySegment ringErrno = Futex.errnoBuffer();

        Own(final int rank)
        {
            this.rank = rank;
            this.at = rank * LINE;
        }

        @Override
        public int arm()
        {
            INT.setVolatile(lines, at + ARMED, 1);
            VarHandle.fullFence();
            return (int)INT.getVolatile(lines, at + VALUE);
        }

        @Override
        public boolean await(final int token, final long timeoutNs)
        {
            return Futex.await(lines.address() + at + VALUE, token, timeoutNs, timeout);
        }

        /**
         * Tolerates an unmapped table: the pass an armed predicate thread runs before it sleeps may install a new view,
         * which closes this view's table (and this line) before the thread disarms. A predicate thread that let that
         * escape died and stalled its member (seen in CI: "Already closed" from here).
         */
        @Override
        public void disarm()
        {
            try
            {
                INT.setVolatile(lines, at + ARMED, 0);
            }
            catch (final IllegalStateException unmapped)
            {
                // The view closed: nobody rings this line any more.
            }
        }

        /** Tolerates an unmapped table, like {@link #disarm()}: a committing thread may ring a view closing under it. */
        @Override
        public void ring()
        {
            try
            {
                ShmBells.this.ring(rank, ringErrno);
            }
            catch (final IllegalStateException unmapped)
            {
                // The view closed; the engine thread is woken by its unpark and finds the next view.
            }
        }
    }
}
