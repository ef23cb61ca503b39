package io.sirocco.transport.flow;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Credit-based flow control for one connection, both halves (paper §VI-D).
 *
 * <p>Sending half: {@code unconfirmedBytes} counts bytes posted to the ring but not yet confirmed by the receiver.
 * Producers (any thread) wait while it is at or above the window, then add their frame. A credit of {@code k}
 * thresholds (read by the transport thread) subtracts {@code k * thresholdBytes}. Both are atomic adds.
 *
 * <p>Receiving half: the coordinator thread alone counts processed bytes ({@code receivedBytes}, plain); each time
 * the count passes the threshold it moves whole thresholds into {@code pendingCredits} (atomic), which the
 * transport takes with {@link #takeCredits(int)} and sends: piggy-backed as a credit frame in front of the next
 * data it writes on the connection (NIO), or by a direct call (loopback). Credit frames themselves bypass the window
 * and are not counted as received data ({@link #uncount}).
 */
public final class FlowControl
{
    private final int windowBytes;
    private final int thresholdBytes;
    private final AtomicLong unconfirmedBytes = new AtomicLong();
    private final AtomicInteger pendingCredits = new AtomicInteger();
    private long receivedBytes;

    public FlowControl(final int windowBytes, final double threshold)
    {
        this.windowBytes = windowBytes;
        this.thresholdBytes = Math.max(1, (int)(windowBytes * threshold));
    }

    /** True if a producer may post now. */
    public boolean windowOpen()
    {
        return unconfirmedBytes.get() < windowBytes;
    }

    public void posted(final int bytes)
    {
        unconfirmedBytes.addAndGet(bytes);
    }

    /** Sending half: the receiver confirmed {@code thresholds} thresholds' worth of bytes. */
    public void onCredits(final int thresholds)
    {
        unconfirmedBytes.addAndGet(-(long)thresholds * thresholdBytes);
    }

    /** Receiving half, coordinator thread only: true if credits became pending (the transport must send them). */
    public boolean onReceived(final int bytes)
    {
        receivedBytes += bytes;
        if (receivedBytes >= thresholdBytes)
        {
            final int thresholds = (int)(receivedBytes / thresholdBytes);
            receivedBytes -= (long)thresholds * thresholdBytes;
            pendingCredits.addAndGet(thresholds);
            return true;
        }
        return false;
    }

    /** Receiving half, coordinator thread only: control bytes (credit frames) that must not earn credits. */
    public void uncount(final int bytes)
    {
        receivedBytes -= bytes;
    }

    /** Transport thread: takes up to 255 pending credits, or 0. */
    public int takeCredits()
    {
        return takeCredits(255);
    }

    /** Transport thread: takes up to {@code max} pending credits, or 0. */
    public int takeCredits(final int max)
    {
        while (true)
        {
            final int pending = pendingCredits.get();
            if (pending == 0)
            {
                return 0;
            }
            final int take = Math.min(pending, max);
            if (pendingCredits.compareAndSet(pending, pending - take))
            {
                return take;
            }
        }
    }

    /** Transport thread: puts back credits it took but could not send. */
    public void returnCredits(final int credits)
    {
        pendingCredits.addAndGet(credits);
    }

    public boolean creditsPending()
    {
        return pendingCredits.get() > 0;
    }

    public long unconfirmedBytes()
    {
        return unconfirmedBytes.get();
    }

    public int windowBytes()
    {
        return windowBytes;
    }

    public int thresholdBytes()
    {
        return thresholdBytes;
    }
}
