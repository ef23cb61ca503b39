package io.sirocco.pubsub.bus.group;

import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * Which writers' samples a topic channel may hand to its readers: the writers whose records were handed to the DDS
 * layer, and the last {@value #MAX_RETIRED} retracted (closed) writers, whose samples still on their way are delivered
 * as they always were. A sample of any other writer is held by its channel until its record arrives.
 *
 * <p>Concurrency: updated only under the group bus's record lock (one writer at a time); the predicate thread reads
 * without a lock or an allocation. Each update publishes a new sorted array (volatile), then bumps
 * {@link #version()}; a reader reads the version first, so a cached answer of an older version is looked up again.
 */
final class WriterDirectory
{
    static final int MAX_RETIRED = 1024;

    private volatile long[] known = new long[0];
    private volatile long[] retired = new long[0];
    /** Under the record lock: the retired GUIDs, oldest first. */
    private final ArrayDeque<Long> retiredOrder = new ArrayDeque<>();
    private volatile int version;

    /** Bumped after {@code known} or {@code retired} change: held samples may go then. */
    int version()
    {
        return version;
    }

    /** Whether samples of this writer go to the readers now: its record is known, or it was retracted. */
    boolean deliverable(final long writerGuid)
    {
        return Arrays.binarySearch(known, writerGuid) >= 0 || Arrays.binarySearch(retired, writerGuid) >= 0;
    }

    boolean isRetired(final long guid)
    {
        return Arrays.binarySearch(retired, guid) >= 0;
    }

    /** Under the record lock: publishes the sorted GUIDs of the known writers. */
    void publishKnown(final long[] sortedWriters)
    {
        known = sortedWriters;
        version++;
    }

    /** Under the record lock: a closed entity's GUID, which never comes back (the oldest retired ones are dropped). */
    void retire(final long guid)
    {
        retiredOrder.addLast(guid);
        if (retiredOrder.size() > MAX_RETIRED)
        {
            retiredOrder.pollFirst();
        }
        retired = retiredOrder.stream().mapToLong(Long::longValue).sorted().toArray();
    }

    /** Under the record lock: a retraction happened (held samples of it may go now). */
    void bump()
    {
        version++;
    }
}
