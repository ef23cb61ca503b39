package io.sirocco.pubsub.sub;

import io.sirocco.pubsub.core.LinkedCondition;
import io.sirocco.pubsub.core.WaitSetLinks;

import java.util.List;
import java.util.Set;

import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.InstanceState;
import org.omg.dds.sub.QueryCondition;
import org.omg.dds.sub.SampleState;
import org.omg.dds.sub.ViewState;

/**
 * A QueryCondition: a ReadCondition whose samples must also pass a DDS-SQL query. It is its states' ReadCondition
 * (registered with the reader, signalled on data arrival and reads) with a content query: its trigger value asks the
 * reader's cache for a sample in the states that passes the query ({@link SelectorImpl#selectsData}).
 *
 * <p>Concurrency: immutable but for the query's parameters, which {@link #setQueryParameters} (any thread) swaps
 * atomically inside the compiled filter (see {@code ContentFilter}).
 */
public final class QueryConditionImpl<T> implements QueryCondition<T>, LinkedCondition
{
    private final ReadConditionImpl<T> states;
    private final SelectorImpl<T> query;

    QueryConditionImpl(final ReadConditionImpl<T> states, final SelectorImpl<T> query)
    {
        this.states = states;
        this.query = query;
    }

    /** The states and the query, as the reader's read and take see them. */
    SelectorImpl<T> selector()
    {
        return query;
    }

    @Override
    public String getQueryExpression()
    {
        return query.getQueryExpression();
    }

    @Override
    public List<String> getQueryParameters()
    {
        return query.getQueryParameters();
    }

    @Override
    public void setQueryParameters(final List<String> queryParameters)
    {
        query.setQueryParameters(queryParameters);
        states.links().signal();
    }

    @Override
    public boolean getTriggerValue()
    {
        return states.getTriggerValue();
    }

    @Override
    public Set<SampleState> getSampleStates()
    {
        return states.getSampleStates();
    }

    @Override
    public Set<ViewState> getViewStates()
    {
        return states.getViewStates();
    }

    @Override
    public Set<InstanceState> getInstanceStates()
    {
        return states.getInstanceStates();
    }

    @Override
    public DataReader<T> getParent()
    {
        return states.getParent();
    }

    @Override
    public void close()
    {
        states.close();
    }

    @Override
    public WaitSetLinks links()
    {
        return states.links();
    }

    @Override
    public ServiceEnvironment getEnvironment()
    {
        return states.getEnvironment();
    }
}
