package io.sirocco.pubsub.sub;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.sirocco.pubsub.SiroccoServiceEnvironment;
import io.sirocco.pubsub.core.DurationImpl;
import io.sirocco.pubsub.entity.EndpointEntity;
import io.sirocco.pubsub.topic.TopicImpl;
import org.omg.dds.core.Duration;
import org.omg.dds.core.InstanceHandle;
import org.omg.dds.core.status.Status;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.DataReaderListener;
import org.omg.dds.sub.DataReaderQos;
import org.omg.dds.sub.QueryCondition;
import org.omg.dds.sub.Sample;
import org.omg.dds.sub.SubscriberListener;

/**
 * The DataReader API's convenience overloads, each reduced to one operation of {@code DataReaderImpl}: every read and
 * take becomes a loan or a copy with a {@link SelectorImpl} (the default one, one with max_samples, or the caller's,
 * which must come from this reader), readNextSample/takeNextSample become {@link #nextSample}, and a Duration
 * becomes nanoseconds. Kept apart so that the reader's file holds what it does, not how the PSM spells it.
 *
 * <p>Threads: as the operations they call; the default selector is immutable once made.
 */
abstract class DataReaderOverloads<T>
    extends EndpointEntity<T, DataReader<T>, DataReaderListener<T>, SubscriberListener, DataReaderQos, SubscriberView>
    implements DataReader<T>
{
    private final SelectorImpl<T> defaultSelector = new SelectorImpl<>(this);

    DataReaderOverloads(final SiroccoServiceEnvironment env, final SubscriberView subscriber, final long guid,
        final TopicImpl<T> topic, final DataReaderQos qos, final DataReaderListener<T> listener,
        final Collection<Class<? extends Status>> statuses)
    {
        super(env, "DataReader", subscriber, guid, topic, qos, listener, statuses);
    }

    /** A read or take as a loan of the cached samples. */
    protected abstract Sample.Iterator<T> loan(SelectorImpl<T> selector, boolean take);

    /** A read or take into {@code samples}, as copies. */
    protected abstract List<Sample<T>> copy(List<Sample<T>> samples, SelectorImpl<T> selector, boolean take);

    /** readNextSample ({@code take} false) or takeNextSample. */
    protected abstract boolean nextSample(Sample<T> sample, boolean take);

    private SelectorImpl<T> defaultSelector()
    {
        return defaultSelector;
    }

    @Override
    public InstanceHandle lookupInstance(final T keyHolder)
    {
        return lookupInstance(null, keyHolder);
    }

    @Override
    public QueryCondition<T> createQueryCondition(final String queryExpression, final List<String> queryParameters)
    {
        return createQueryCondition(DataStateImpl.any(env), queryExpression, queryParameters);
    }

    @Override
    public Sample.Iterator<T> read()
    {
        return loan(defaultSelector(), false);
    }

    @Override
    public Sample.Iterator<T> read(final Selector<T> query)
    {
        return loan(selectorOf(query), false);
    }

    @Override
    public Sample.Iterator<T> read(final int maxSamples)
    {
        return loan(limited(maxSamples), false);
    }

    @Override
    public List<Sample<T>> read(final List<Sample<T>> samples)
    {
        return copy(samples, defaultSelector(), false);
    }

    @Override
    public List<Sample<T>> read(final List<Sample<T>> samples, final Selector<T> selector)
    {
        return copy(samples, selectorOf(selector), false);
    }

    @Override
    public Sample.Iterator<T> take()
    {
        return loan(defaultSelector(), true);
    }

    @Override
    public Sample.Iterator<T> take(final int maxSamples)
    {
        return loan(limited(maxSamples), true);
    }

    @Override
    public Sample.Iterator<T> take(final Selector<T> query)
    {
        return loan(selectorOf(query), true);
    }

    @Override
    public List<Sample<T>> take(final List<Sample<T>> samples)
    {
        return copy(samples, defaultSelector(), true);
    }

    @Override
    public List<Sample<T>> take(final List<Sample<T>> samples, final Selector<T> selector)
    {
        return copy(samples, selectorOf(selector), true);
    }

    private SelectorImpl<T> limited(final int maxSamples)
    {
        final SelectorImpl<T> selector = new SelectorImpl<>(this);
        selector.maxSamples(maxSamples);
        return selector;
    }

    private SelectorImpl<T> selectorOf(final Selector<T> selector)
    {
        if (selector instanceof SelectorImpl<T> impl)
        {
            return impl;
        }
        throw new IllegalArgumentException(describe() + ": the Selector must come from this reader's select()");
    }

    @Override
    public boolean readNextSample(final Sample<T> sample)
    {
        return nextSample(sample, false);
    }

    @Override
    public boolean takeNextSample(final Sample<T> sample)
    {
        return nextSample(sample, true);
    }


    @Override
    public void waitForHistoricalData(final Duration maxWait) throws TimeoutException
    {
        waitForHistoricalData(DurationImpl.toNanos(maxWait), TimeUnit.NANOSECONDS);
    }
}
