package io.sirocco.transport.nio;

import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;

/**
 * Stops accepting for a while after {@code accept} failed (typically "Too many open files" at the fd limit). The
 * listening socket stays ready while the limit lasts, so without a pause the selector loop would spin on failing
 * accepts and starve the live connections it also serves (reads, writes, heartbeats). After a failure the server key
 * loses {@code OP_ACCEPT} for a pause that doubles from {@link #FIRST_PAUSE_NS} up to {@link #MAX_PAUSE_NS}; a
 * successful accept resets it. Pending connections wait in the kernel's backlog meanwhile.
 *
 * <p>Selector loop's leader only; no lock.
 */
final class AcceptBackoff
{
    static final long FIRST_PAUSE_NS = 10_000_000L;
    static final long MAX_PAUSE_NS = 1_000_000_000L;

    private SelectionKey serverKey;
    private long pauseNs = FIRST_PAUSE_NS;
    private long resumeAtNs;
    private boolean paused;

    void serverKey(final SelectionKey key)
    {
        this.serverKey = key;
    }

    /** An accept succeeded: the next failure pauses for the first, short, pause again. */
    void onAccepted()
    {
        pauseNs = FIRST_PAUSE_NS;
    }

    /** An accept failed: stop accepting until the pause is over. */
    void onFailure(final long nowNs)
    {
        if (serverKey == null || paused)
        {
            return;
        }
        try
        {
            serverKey.interestOps(0);
        }
        catch (final CancelledKeyException e)
        {
            return; // shutting down
        }
        paused = true;
        resumeAtNs = nowNs + pauseNs;
        pauseNs = Math.min(MAX_PAUSE_NS, pauseNs * 2);
    }

    boolean paused()
    {
        return paused;
    }

    /** Resumes accepting if the pause is over; true if it did. */
    boolean resumeIfDue(final long nowNs)
    {
        if (!paused || nowNs - resumeAtNs < 0)
        {
            return false;
        }
        paused = false;
        try
        {
            serverKey.interestOps(SelectionKey.OP_ACCEPT);
        }
        catch (final CancelledKeyException e)
        {
            // shutting down
        }
        return true;
    }

    /** Nanoseconds until accepting resumes, or -1 if it is not paused. */
    long nanosToResume(final long nowNs)
    {
        return paused ? Math.max(0, resumeAtNs - nowNs) : -1;
    }
}
