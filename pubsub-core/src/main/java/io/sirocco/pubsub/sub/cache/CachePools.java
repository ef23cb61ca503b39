package io.sirocco.pubsub.sub.cache;

import java.util.ArrayDeque;
import java.util.List;

import org.omg.dds.core.ServiceEnvironment;

/**
 * The free lists that keep a {@link ReaderHistoryCache} allocation-free once warm: data objects to deserialize into,
 * sample entries, and the {@link SampleImpl}s handed out by reads and loans. An entry still on loan when its sample
 * is removed is recycled when the last loan comes back.
 *
 * <p>Concurrency: not thread-safe; used only by its cache, under the owning reader's lock.
 */
final class CachePools<T>
{
    private final ServiceEnvironment env;
    private final ArrayDeque<T> freeData = new ArrayDeque<>();
    private final ArrayDeque<SampleEntry<T>> freeEntries = new ArrayDeque<>();
    private final ArrayDeque<SampleImpl<T>> freeSamples = new ArrayDeque<>();

    CachePools(final ServiceEnvironment env)
    {
        this.env = env;
    }

    /** A data object to deserialize into, or null. */
    T pollData()
    {
        return freeData.pollFirst();
    }

    void freeData(final T data)
    {
        freeData.addLast(data);
    }

    /** A pooled (or new) sample object to hand out. */
    SampleImpl<T> sample()
    {
        return freeSamples.isEmpty() ? new SampleImpl<>(env) : freeSamples.pollFirst();
    }

    SampleEntry<T> newEntry()
    {
        final SampleEntry<T> entry = freeEntries.pollFirst();
        if (entry == null)
        {
            return new SampleEntry<>();
        }
        entry.read = false;
        entry.loans = 0;
        entry.removed = false;
        return entry;
    }

    void recycle(final SampleEntry<T> entry)
    {
        if (entry.data != null)
        {
            freeData.addLast(entry.data);
        }
        entry.data = null;
        freeEntries.addLast(entry);
    }

    /** A loan's samples come back: their entries may be recycled, the sample objects go back to the pool. */
    void returnLoaned(final List<SampleImpl<T>> samples)
    {
        for (int i = 0; i < samples.size(); i++)
        {
            final SampleImpl<T> sample = samples.get(i);
            final SampleEntry<T> entry = sample.entry;
            if (entry != null)
            {
                entry.loans--;
                if (entry.removed && entry.loans == 0)
                {
                    recycle(entry);
                }
            }
            sample.clearData();
            freeSamples.addLast(sample);
        }
        samples.clear();
    }

    /**
     * A sample collected for a copying read or take has been copied: after a take its entry is recycled unless a
     * loan still holds it; the sample object goes back to the pool.
     */
    void returnCopied(final SampleImpl<T> source, final boolean take)
    {
        final SampleEntry<T> entry = source.entry;
        if (take && entry != null && entry.loans == 0)
        {
            recycle(entry);
        }
        source.clearData();
        freeSamples.addLast(source);
    }
}
