package io.sirocco.pubsub.sub;

import java.util.List;

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
    private List<String> parameters = List.of();
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

    String query()
    {
        return query;
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

    @Override
    public DataReader.Selector<T> Content(final String queryExpression, final List<String> queryParameters)
    {
        query = queryExpression;
        parameters = queryParameters == null ? List.of() : List.copyOf(queryParameters);
        return this;
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
        return parameters;
    }

    @Override
    public int getMaxSamples()
    {
        return maxSamples;
    }

    @Override
    public ReadCondition<T> getCondition()
    {
        return reader.createReadCondition(state);
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
