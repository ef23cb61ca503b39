package io.sirocco.pubsub.sub;

import java.util.EnumSet;
import java.util.Set;

import io.sirocco.pubsub.sub.cache.DataStateBits;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.sub.InstanceState;
import org.omg.dds.sub.SampleState;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.sub.ViewState;

/**
 * A set of sample, view and instance states, kept as three small bit masks so that the cache can test a sample
 * without allocating. Modifiable, as the PSM's {@code with(...)} methods require.
 */
public final class DataStateImpl implements Subscriber.DataState
{
    public static final int SAMPLE_READ = DataStateBits.SAMPLE_READ;
    public static final int SAMPLE_NOT_READ = DataStateBits.SAMPLE_NOT_READ;
    public static final int VIEW_NEW = DataStateBits.VIEW_NEW;
    public static final int VIEW_NOT_NEW = DataStateBits.VIEW_NOT_NEW;
    public static final int INSTANCE_ALIVE = DataStateBits.INSTANCE_ALIVE;
    public static final int INSTANCE_DISPOSED = DataStateBits.INSTANCE_DISPOSED;
    public static final int INSTANCE_NO_WRITERS = DataStateBits.INSTANCE_NO_WRITERS;

    private final transient ServiceEnvironment env;
    private int sampleMask;
    private int viewMask;
    private int instanceMask;

    public DataStateImpl(final ServiceEnvironment env, final int sampleMask, final int viewMask,
        final int instanceMask)
    {
        this.env = env;
        this.sampleMask = sampleMask;
        this.viewMask = viewMask;
        this.instanceMask = instanceMask;
    }

    public static DataStateImpl any(final ServiceEnvironment env)
    {
        return new DataStateImpl(env, 3, 3, 7);
    }

    public static DataStateImpl of(final ServiceEnvironment env, final Subscriber.DataState state)
    {
        if (state instanceof DataStateImpl impl)
        {
            return impl.clone();
        }
        final DataStateImpl copy = new DataStateImpl(env, 0, 0, 0);
        state.getSampleStates().forEach(copy::with);
        state.getViewStates().forEach(copy::with);
        state.getInstanceStates().forEach(copy::with);
        return copy;
    }

    public static int bit(final SampleState state)
    {
        return state == SampleState.READ ? SAMPLE_READ : SAMPLE_NOT_READ;
    }

    public static int bit(final ViewState state)
    {
        return state == ViewState.NEW ? VIEW_NEW : VIEW_NOT_NEW;
    }

    public static int bit(final InstanceState state)
    {
        return switch (state)
        {
            case ALIVE -> INSTANCE_ALIVE;
            case NOT_ALIVE_DISPOSED -> INSTANCE_DISPOSED;
            case NOT_ALIVE_NO_WRITERS -> INSTANCE_NO_WRITERS;
        };
    }

    public int sampleMask()
    {
        return sampleMask;
    }

    public int viewMask()
    {
        return viewMask;
    }

    public int instanceMask()
    {
        return instanceMask;
    }

    @Override
    public Set<SampleState> getSampleStates()
    {
        final Set<SampleState> set = EnumSet.noneOf(SampleState.class);
        for (final SampleState s : SampleState.values())
        {
            if ((sampleMask & bit(s)) != 0)
            {
                set.add(s);
            }
        }
        return set;
    }

    @Override
    public Set<ViewState> getViewStates()
    {
        final Set<ViewState> set = EnumSet.noneOf(ViewState.class);
        for (final ViewState s : ViewState.values())
        {
            if ((viewMask & bit(s)) != 0)
            {
                set.add(s);
            }
        }
        return set;
    }

    @Override
    public Set<InstanceState> getInstanceStates()
    {
        final Set<InstanceState> set = EnumSet.noneOf(InstanceState.class);
        for (final InstanceState s : InstanceState.values())
        {
            if ((instanceMask & bit(s)) != 0)
            {
                set.add(s);
            }
        }
        return set;
    }

    @Override
    public Subscriber.DataState with(final SampleState state)
    {
        sampleMask |= bit(state);
        return this;
    }

    @Override
    public Subscriber.DataState with(final ViewState state)
    {
        viewMask |= bit(state);
        return this;
    }

    @Override
    public Subscriber.DataState with(final InstanceState state)
    {
        instanceMask |= bit(state);
        return this;
    }

    @Override
    public Subscriber.DataState withAnySampleState()
    {
        sampleMask = SAMPLE_READ | SAMPLE_NOT_READ;
        return this;
    }

    @Override
    public Subscriber.DataState withAnyViewState()
    {
        viewMask = VIEW_NEW | VIEW_NOT_NEW;
        return this;
    }

    @Override
    public Subscriber.DataState withAnyInstanceState()
    {
        instanceMask = INSTANCE_ALIVE | INSTANCE_DISPOSED | INSTANCE_NO_WRITERS;
        return this;
    }

    @Override
    public Subscriber.DataState withNotAliveInstanceStates()
    {
        instanceMask |= INSTANCE_DISPOSED | INSTANCE_NO_WRITERS;
        return this;
    }

    @Override
    public DataStateImpl clone()
    {
        return new DataStateImpl(env, sampleMask, viewMask, instanceMask);
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof DataStateImpl d && d.sampleMask == sampleMask && d.viewMask == viewMask &&
            d.instanceMask == instanceMask;
    }

    @Override
    public int hashCode()
    {
        return sampleMask * 64 + viewMask * 8 + instanceMask;
    }

    @Override
    public ServiceEnvironment getEnvironment()
    {
        return env;
    }

    @Override
    public String toString()
    {
        return "DataState" + getSampleStates() + getViewStates() + getInstanceStates();
    }
}
