package io.sirocco.pubsub.sub;

import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;

import io.sirocco.pubsub.core.LinkedCondition;
import io.sirocco.pubsub.core.WaitSetLinks;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.InstanceState;
import org.omg.dds.sub.ReadCondition;
import org.omg.dds.sub.SampleState;
import org.omg.dds.sub.ViewState;

/**
 * A ReadCondition: triggered while its reader holds a sample in the given states (evaluated on demand). It sees its
 * reader only through the DDS interface and the two functions the reader gives it, so the reader and its conditions
 * do not depend on each other.
 */
public final class ReadConditionImpl<T> implements ReadCondition<T>, LinkedCondition
{
    private final DataReader<T> reader;
    private final DataStateImpl state;
    private final Predicate<DataStateImpl> holdsSamples;
    private final Consumer<ReadConditionImpl<T>> onClose;
    private final WaitSetLinks links = new WaitSetLinks();

    /**
     * @param holdsSamples whether the open reader holds a sample in the given states (false once it is closed).
     * @param onClose      detaches this condition from the reader.
     */
    ReadConditionImpl(final DataReader<T> reader, final DataStateImpl state,
        final Predicate<DataStateImpl> holdsSamples, final Consumer<ReadConditionImpl<T>> onClose)
    {
        this.reader = reader;
        this.state = state;
        this.holdsSamples = holdsSamples;
        this.onClose = onClose;
    }

    DataStateImpl state()
    {
        return state;
    }

    @Override
    public boolean getTriggerValue()
    {
        return holdsSamples.test(state);
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
        onClose.accept(this);
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
