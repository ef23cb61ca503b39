package io.sirocco.pubsub.sub.cache;

import java.util.ArrayList;
import java.util.Arrays;

import io.sirocco.pubsub.cache.InstanceKey;
import io.sirocco.pubsub.timer.DeadlineTrack;
import org.omg.dds.sub.InstanceState;

/**
 * One instance in a reader's cache: its state machine (ALIVE / NOT_ALIVE_DISPOSED / NOT_ALIVE_NO_WRITERS), view
 * state, generation counts, the writers currently writing it and its samples oldest first. Guarded by the reader's
 * cache lock.
 */
final class ReaderInstance<T>
{
    final long handle;
    final InstanceKey key;
    T keyHolder;
    InstanceState state = InstanceState.ALIVE;
    boolean viewNew = true;
    int disposedGen;
    int noWritersGen;
    final ArrayList<SampleEntry<T>> samples = new ArrayList<>(4);
    /** Whether it is in its cache's {@link HoldingInstances} (it is whenever it holds a sample). */
    boolean holding;
    /** When its samples arrived, for the reader's DEADLINE. */
    final DeadlineTrack deadline = new DeadlineTrack();
    /** TIME_BASED_FILTER: when the last data sample was kept, once one was ({@link SeparationFilter}). */
    long acceptedNs;
    boolean separated;
    /** OWNERSHIP EXCLUSIVE: the owning writer (0: none), its strength, when its last kept sample arrived. */
    long owner;
    int ownerStrength;
    long ownerHeardNs;
    /** DESTINATION_ORDER BY_SOURCE_TIMESTAMP: the source timestamp of the last data sample kept, once one was. */
    long lastSourceNs;
    boolean sourceOrdered;
    private long[] writers = new long[2];
    private int writerCount;

    ReaderInstance(final long handle, final InstanceKey key)
    {
        this.handle = handle;
        this.key = key;
    }

    /** A sample of {@code writerGuid} was stored: the writer writes this instance, and its deadline restarts. */
    void arrivedFrom(final long writerGuid)
    {
        addWriter(writerGuid);
        deadline.updated(System.nanoTime());
    }

    boolean addWriter(final long writerGuid)
    {
        for (int i = 0; i < writerCount; i++)
        {
            if (writers[i] == writerGuid)
            {
                return false;
            }
        }
        if (writerCount == writers.length)
        {
            writers = Arrays.copyOf(writers, writerCount * 2);
        }
        writers[writerCount++] = writerGuid;
        return true;
    }

    boolean removeWriter(final long writerGuid)
    {
        for (int i = 0; i < writerCount; i++)
        {
            if (writers[i] == writerGuid)
            {
                writers[i] = writers[--writerCount];
                return true;
            }
        }
        return false;
    }

    int writerCount()
    {
        return writerCount;
    }

    boolean hasUnread()
    {
        for (final SampleEntry<T> sample : samples)
        {
            if (!sample.read)
            {
                return true;
            }
        }
        return false;
    }

    /** Whether its instance and view states match these {@link DataStateBits} masks. */
    boolean selectedBy(final int viewMask, final int instanceMask)
    {
        return (instanceMask & stateBit()) != 0 &&
            (viewMask & (viewNew ? DataStateBits.VIEW_NEW : DataStateBits.VIEW_NOT_NEW)) != 0;
    }

    int stateBit()
    {
        return switch (state)
        {
            case ALIVE -> DataStateBits.INSTANCE_ALIVE;
            case NOT_ALIVE_DISPOSED -> DataStateBits.INSTANCE_DISPOSED;
            case NOT_ALIVE_NO_WRITERS -> DataStateBits.INSTANCE_NO_WRITERS;
        };
    }
}
