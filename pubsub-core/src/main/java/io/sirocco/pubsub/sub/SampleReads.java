package io.sirocco.pubsub.sub;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

import io.sirocco.pubsub.core.DdsExceptions;
import io.sirocco.pubsub.core.HandleImpl;
import io.sirocco.pubsub.sub.cache.ReadSpec;
import io.sirocco.pubsub.sub.cache.ReaderHistoryCache;
import io.sirocco.pubsub.sub.cache.SampleImpl;
import io.sirocco.pubsub.topic.SampleOps;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.sub.Sample;

/**
 * The read and take paths of a DataReader: a loan ({@link LoanIterator}, the cached objects themselves, nothing
 * copied, pooled) or a copy into the application's list, both through {@link ReaderHistoryCache#collect}. The
 * reader has refused what the cache cannot select (content queries) before calling here.
 *
 * <p>Concurrency: called by application threads (and listeners on the delivery thread). The loan pool and the count
 * of loans not returned are guarded by the reader's {@code ReentrantLock}, taken here around each call into the
 * cache; the {@code onRead} callback (DataAvailable and DataOnReaders read) runs under it; ReadConditions are
 * signalled after it is released.
 */
final class SampleReads<T>
{
    private final ServiceEnvironment env;
    private final String name;
    private final ReentrantLock lock;
    private final ReaderHistoryCache<T> cache;
    private final SampleOps<T> ops;
    private final ReadConditions conditions;
    private final Runnable onRead;
    private final ArrayDeque<LoanIterator<T>> freeLoans = new ArrayDeque<>();
    private final Consumer<LoanIterator<T>> returnLoan = this::returnLoan;
    /** Loans from read()/take() not closed yet; under {@code lock}. */
    private int outstandingLoans;

    /**
     * @param name   the reader, for error messages.
     * @param onRead called under {@code lock} after each read or take (clears the DataAvailable/DataOnReaders bits).
     */
    SampleReads(final ServiceEnvironment env, final String name, final ReentrantLock lock,
        final ReaderHistoryCache<T> cache, final SampleOps<T> ops, final ReadConditions conditions,
        final Runnable onRead)
    {
        this.env = env;
        this.name = name;
        this.lock = lock;
        this.cache = cache;
        this.ops = ops;
        this.conditions = conditions;
        this.onRead = onRead;
    }

    /** Under {@code lock}: the loans not returned yet. */
    int outstandingLoans()
    {
        return outstandingLoans;
    }

    /**
     * Under {@code lock}: collects the selected samples into {@code out} (pooled SampleImpls referencing cached
     * data), marks them read or removes them, and computes ranks.
     */
    private void collect(final ReadSpec selector, final boolean take, final List<SampleImpl<T>> out,
        final boolean forLoan)
    {
        final long handle = selector.instanceValue();
        if (!selector.nextInstanceFlag() && handle != 0 && !cache.hasInstance(handle))
        {
            throw DdsExceptions.precondition(env, name + ": read/take: " + new HandleImpl(env, handle) +
                " is not an instance of this reader");
        }
        cache.collect(selector, take, out, forLoan);
        onRead.run();
    }

    /** A read or take through a loan: the cached objects themselves, until the loan is closed. */
    Sample.Iterator<T> loan(final ReadSpec selector, final boolean take)
    {
        lock.lock();
        try
        {
            final LoanIterator<T> loan = freeLoans.isEmpty() ? new LoanIterator<>(returnLoan) : freeLoans.pollFirst();
            loan.reset(take);
            try
            {
                collect(selector, take, loan.samples, true);
            }
            catch (final RuntimeException ex)
            {
                loan.open = false;
                loan.samples.clear();
                freeLoans.addLast(loan);
                throw ex;
            }
            outstandingLoans++;
            return loan;
        }
        finally
        {
            lock.unlock();
        }
    }

    private void returnLoan(final LoanIterator<T> loan)
    {
        lock.lock();
        try
        {
            cache.returnLoaned(loan.samples);
            outstandingLoans--;
            freeLoans.addLast(loan);
        }
        finally
        {
            lock.unlock();
        }
        if (!conditions.isEmpty())
        {
            conditions.signalAll();
        }
    }

    /**
     * readNextSample ({@code take} false) or takeNextSample: the next not-read sample, copied into {@code sample},
     * which must come from this implementation; {@code next} is a fresh selector of the reader. False if none.
     */
    boolean nextSample(final Sample<T> sample, final SelectorImpl<T> next, final boolean take)
    {
        if (!(sample instanceof SampleImpl<T> target))
        {
            throw new IllegalArgumentException(name + ": readNextSample/takeNextSample need a Sample obtained " +
                "from this DDS implementation (e.g. from read(List))");
        }
        next.dataState(new DataStateImpl(env, DataStateImpl.SAMPLE_NOT_READ, 3, 7)).maxSamples(1);
        final List<Sample<T>> one = copy(new ArrayList<>(1), next, take);
        if (one.isEmpty())
        {
            return false;
        }
        final SampleImpl<T> got = (SampleImpl<T>)one.get(0);
        target.copyMeta(got);
        target.data(got.data());
        target.copier(ops::copy);
        return true;
    }

    /** A read or take into {@code samples} (a new list if null): deep copies, detached from the cache. */
    List<Sample<T>> copy(final List<Sample<T>> samples, final ReadSpec selector, final boolean take)
    {
        final List<Sample<T>> result = samples == null ? new ArrayList<>() : samples;
        final List<SampleImpl<T>> collected = new ArrayList<>();
        lock.lock();
        try
        {
            collect(selector, take, collected, false);
            for (int i = 0; i < collected.size(); i++)
            {
                final SampleImpl<T> source = collected.get(i);
                final SampleImpl<T> target = target(result, i);
                target.copyMeta(source);
                target.data(source.data() == null ? null : ops.copy(source.data()));
                target.copier(ops::copy);
                cache.returnCopied(source, take);
            }
        }
        finally
        {
            lock.unlock();
        }
        while (result.size() > collected.size())
        {
            result.remove(result.size() - 1);
        }
        if (take && !conditions.isEmpty())
        {
            conditions.signalAll();
        }
        return result;
    }

    /** The sample at {@code i} of the application's list, reused if it is ours, else a new one put there. */
    private SampleImpl<T> target(final List<Sample<T>> result, final int i)
    {
        if (i < result.size() && result.get(i) instanceof SampleImpl<T> reuse)
        {
            return reuse;
        }
        final SampleImpl<T> target = new SampleImpl<>(env);
        if (i < result.size())
        {
            result.set(i, target);
        }
        else
        {
            result.add(target);
        }
        return target;
    }
}
