package io.sirocco.pubsub.pub;

import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * The writers' default source timestamp: wall-clock time in nanoseconds since the epoch, without allocating.
 * {@code Instant.now()} allocates an {@code Instant} per call; this clock reads {@code System.nanoTime()} plus an
 * offset to the wall clock that is re-taken from {@code Instant.now()} at most once per second, so it follows
 * wall-clock adjustments within a second and its precision is {@code nanoTime}'s.
 *
 * <p>Threads: any. The offset and the time it was taken are two volatile longs written by whichever caller finds the
 * offset stale; a reader that pairs a new offset with an old calibration time (or the reverse) still gets a valid
 * reading, so the race is benign.
 */
final class SourceClock
{
    private static final long RECALIBRATE_NS = TimeUnit.SECONDS.toNanos(1);
    private static volatile long offsetNs;
    private static volatile long calibratedAtNs;

    static
    {
        calibrate(System.nanoTime());
    }

    private SourceClock()
    {
    }

    /** @return now, in nanoseconds since 1970-01-01T00:00Z. */
    static long nowNs()
    {
        final long now = System.nanoTime();
        if (now - calibratedAtNs > RECALIBRATE_NS)
        {
            calibrate(now);
        }
        return now + offsetNs;
    }

    private static void calibrate(final long nanoTime)
    {
        final Instant wall = Instant.now();
        offsetNs = wall.getEpochSecond() * 1_000_000_000L + wall.getNano() - nanoTime;
        calibratedAtNs = nanoTime;
    }
}
