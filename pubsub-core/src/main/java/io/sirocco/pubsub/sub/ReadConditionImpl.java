package io.sirocco.pubsub.sub;

import java.util.Set;

import io.sirocco.pubsub.core.LinkedCondition;
import io.sirocco.pubsub.core.WaitSetLinks;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.InstanceState;
import org.omg.dds.sub.ReadCondition;
import org.omg.dds.sub.SampleState;
import org.omg.dds.sub.ViewState;

/** A ReadCondition: triggered while its reader holds a sample in the given states (evaluated on demand). */
public final class ReadConditionImpl<T> implements ReadCondition<T>, LinkedCondition
{
    private final DataReaderImpl<T> reader;
    private final DataStateImpl state;
    private final WaitSetLinks links = new WaitSetLinks();

    ReadConditionImpl(final DataReaderImpl<T> reader, final DataStateImpl state)
    {
        this.reader = reader;
        this.state = state;
    }

    DataStateImpl state()
    {
        return state;
    }

    @Override
    public boolean getTriggerValue()
    {
        return !reader.isClosed() && reader.hasSamples(state);
    }

    @Override
    public Set<SampleState> getSampleStates()
    {
        return state.getSampleStates();
    }

    @Override
    public Set<ViewState> getViewStates()
    {
        return state.getViewStates();
    }

    @Override
    public Set<InstanceState> getInstanceStates()
    {
        return state.getInstanceStates();
    }

    @Override
    public DataReader<T> getParent()
    {
        return reader;
    }

    @Override
    public void close()
    {
        reader.removeCondition(this);
    }

    @Override
    public WaitSetLinks links()
    {
        return links;
    }

    @Override
    public ServiceEnvironment getEnvironment()
    {
        return reader.getEnvironment();
    }
}
