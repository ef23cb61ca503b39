package io.sirocco.pubsub.sub;

import java.util.ArrayList;
import java.util.NoSuchElementException;
import java.util.function.Consumer;

import io.sirocco.pubsub.sub.cache.SampleImpl;
import org.omg.dds.sub.Sample;

/**
 * A loan: the samples of one read or take, handed out without copying. Closing it returns the loan to the reader,
 * which recycles the sample objects (and, after a take, the data objects). Pooled by the reader.
 */
public final class LoanIterator<T> implements Sample.Iterator<T>
{
    private final Consumer<LoanIterator<T>> onClose;
    final ArrayList<SampleImpl<T>> samples = new ArrayList<>();
    boolean taken;
    boolean open;
    private int index;

    /** @param onClose returns the loan to its reader. */
    LoanIterator(final Consumer<LoanIterator<T>> onClose)
    {
        this.onClose = onClose;
    }

    void reset(final boolean take)
    {
        taken = take;
        open = true;
        index = 0;
    }

    public int size()
    {
        return samples.size();
    }

    @Override
    public boolean hasNext()
    {
        return index < samples.size();
    }

    @Override
    public Sample<T> next()
    {
        if (!open)
        {
            throw new IllegalStateException("Sample.Iterator used after close(): the loan was returned");
        }
        if (index >= samples.size())
        {
            throw new NoSuchElementException();
        }
        return samples.get(index++);
    }

    @Override
    public boolean hasPrevious()
    {
        return index > 0;
    }

    @Override
    public Sample<T> previous()
    {
        if (index <= 0)
        {
            throw new NoSuchElementException();
        }
        return samples.get(--index);
    }

    @Override
    public int nextIndex()
    {
        return index;
    }

    @Override
    public int previousIndex()
    {
        return index - 1;
    }

    @Override
    public void close()
    {
        if (open)
        {
            open = false;
            onClose.accept(this);
        }
    }

    @Override
    public void remove()
    {
        throw new UnsupportedOperationException("a loaned sample collection is read-only");
    }

    @Override
    public void set(final Sample<T> sample)
    {
        throw new UnsupportedOperationException("a loaned sample collection is read-only");
    }

    @Override
    public void add(final Sample<T> sample)
    {
        throw new UnsupportedOperationException("a loaned sample collection is read-only");
    }
}
