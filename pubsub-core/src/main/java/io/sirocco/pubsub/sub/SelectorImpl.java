package io.sirocco.pubsub.sub;

import java.util.List;

import io.sirocco.pubsub.content.ContentFilter;

import io.sirocco.pubsub.core.HandleImpl;
import io.sirocco.pubsub.sub.cache.ReadSpec;
import org.omg.dds.core.InstanceHandle;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.ResourceLimits;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.ReadCondition;
import org.omg.dds.sub.Sample;
import org.omg.dds.sub.Subscriber;

/** The PSM's Selector: which instance, which states and how many samples a read or take returns. */
public final class SelectorImpl<T> implements DataReader.Selector<T>, ReadSpec
{
    /** Its reader, seen through the PSM interface only. */
    private final DataReader<T> reader;
    private long instance;
    private boolean nextInstance;
    private DataStateImpl state;
    private String query;
    /** The compiled {@link #query}, or null; its parameters may change from any thread (see ContentFilter). */
    private ContentFilter<T> content;
    private int maxSamples = ResourceLimits.LENGTH_UNLIMITED;

    SelectorImpl(final DataReader<T> reader)
    {
        this.reader = reader;
        this.state = DataStateImpl.any(reader.getEnvironment());
    }

    @Override
    public long instanceValue()
    {
        return instance;
    }

    @Override
    public boolean nextInstanceFlag()
    {
        return nextInstance;
    }

    @Override
    public int sampleMask()
    {
        return state.sampleMask();
    }

    @Override
    public int viewMask()
    {
        return state.viewMask();
    }

    @Override
    public int instanceMask()
    {
        return state.instanceMask();
    }

    @Override
    public int sampleLimit()
    {
        return maxSamples == ResourceLimits.LENGTH_UNLIMITED ? Integer.MAX_VALUE : maxSamples;
    }

    DataStateImpl state()
    {
        return state;
    }

    @Override
    public DataReader.Selector<T> instance(final InstanceHandle handle)
    {
        instance = handle == null ? 0 : HandleImpl.valueOf(handle);
        return this;
    }

    @Override
    public DataReader.Selector<T> nextInstance(final boolean retrieveNext)
    {
        nextInstance = retrieveNext;
        return this;
    }

    @Override
    public DataReader.Selector<T> dataState(final Subscriber.DataState dataState)
    {
        state = DataStateImpl.of(reader.getEnvironment(), dataState);
        return this;
    }

    /**
     * Selects only samples that pass the DDS-SQL {@code queryExpression} (null or empty: every sample).
     *
     * @throws IllegalArgumentException naming the position and token of a syntax error, or an unknown field and the
     *         type.
     */
    @Override
    public DataReader.Selector<T> Content(final String queryExpression, final List<String> queryParameters)
    {
        if (queryExpression == null || queryExpression.isBlank())
        {
            query = null;
            content = null;
            return this;
        }
        content = ContentFilter.compile(queryExpression, queryParameters,
            reader.getTopicDescription().getTypeSupport().getType());
        query = queryExpression;
        return this;
    }

    /** New values for the query's parameters (a QueryCondition's {@code setQueryParameters}). */
    void setQueryParameters(final List<String> queryParameters)
    {
        if (content != null)
        {
            content.setParameters(queryParameters);
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public boolean selectsData(final Object data)
    {
        final ContentFilter<T> query = content;
        return query == null || data != null && query.matches((T)data);
    }

    @Override
    public DataReader.Selector<T> maxSamples(final int max)
    {
        maxSamples = max;
        return this;
    }

    @Override
    public InstanceHandle getInstance()
    {
        return new HandleImpl(reader.getEnvironment(), instance);
    }

    @Override
    public boolean retrieveNextInstance()
    {
        return nextInstance;
    }

    @Override
    public Subscriber.DataState getDataState()
    {
        return state.clone();
    }

    @Override
    public String getQueryExpression()
    {
        return query;
    }

    @Override
    public List<String> getQueryParameters()
    {
        return content == null ? List.of() : content.parameters();
    }

    @Override
    public int getMaxSamples()
    {
        return maxSamples;
    }

    @Override
    public ReadCondition<T> getCondition()
    {
        return query == null ? reader.createReadCondition(state) :
            reader.createQueryCondition(state, query, content.parameters());
    }

    @Override
    public Sample.Iterator<T> read()
    {
        return reader.read(this);
    }

    @Override
    public List<Sample<T>> read(final List<Sample<T>> samples)
    {
        return reader.read(samples, this);
    }

    @Override
    public Sample.Iterator<T> take()
    {
        return reader.take(this);
    }

    @Override
    public List<Sample<T>> take(final List<Sample<T>> samples)
    {
        return reader.take(samples, this);
    }

    @Override
    public ServiceEnvironment getEnvironment()
    {
        return reader.getEnvironment();
    }
}
