package io.sirocco.pubsub.sub.cache;

import org.omg.dds.core.ModifiableInstanceHandle;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.Time;
import org.omg.dds.sub.InstanceState;
import org.omg.dds.sub.Sample;
import org.omg.dds.sub.SampleState;
import org.omg.dds.sub.ViewState;

import io.sirocco.pubsub.core.HandleImpl;
import io.sirocco.pubsub.core.TimeImpl;

/**
 * A sample as the application sees it: data (null for an invalid sample, which only carries an instance state
 * change) and its SampleInfo. Loaned samples are pooled by their reader and refilled in place; their contents are
 * valid until the loan's iterator is closed.
 */
public final class SampleImpl<T> implements Sample<T>
{
    private static final long serialVersionUID = 1L;

    private final transient ServiceEnvironment env;
    private final transient HandleImpl instanceHandle;
    private final transient HandleImpl publicationHandle;
    private final transient TimeImpl sourceTimestamp;
    private transient T data;
    private SampleState sampleState = SampleState.NOT_READ;
    private ViewState viewState = ViewState.NEW;
    private InstanceState instanceState = InstanceState.ALIVE;
    private int disposedGenerationCount;
    private int noWritersGenerationCount;
    private int sampleRank;
    private int generationRank;
    private int absoluteGenerationRank;
    transient SampleEntry<T> entry;

    public SampleImpl(final ServiceEnvironment env)
    {
        this.env = env;
        this.instanceHandle = new HandleImpl(env, 0);
        this.publicationHandle = new HandleImpl(env, 0);
        this.sourceTimestamp = new TimeImpl(env, TimeImpl.INVALID_NS);
    }

    void fill(final T sampleData, final SampleEntry<T> from, final ReaderInstance<T> instance)
    {
        data = sampleData;
        entry = from;
        sampleState = from.read ? SampleState.READ : SampleState.NOT_READ;
        viewState = instance.viewNew ? ViewState.NEW : ViewState.NOT_NEW;
        instanceState = instance.state;
        disposedGenerationCount = from.disposedGen;
        noWritersGenerationCount = from.noWritersGen;
        instanceHandle.value(instance.handle);
        publicationHandle.value(from.publicationGuid);
        sourceTimestamp.timeNs(from.sourceTimeNs);
    }

    void ranks(final int sample, final int generation, final int absoluteGeneration)
    {
        sampleRank = sample;
        generationRank = generation;
        absoluteGenerationRank = absoluteGeneration;
    }

    public T data()
    {
        return data;
    }

    public void clearData()
    {
        data = null;
        entry = null;
    }

    public void copyMeta(final SampleImpl<T> other)
    {
        sampleState = other.sampleState;
        viewState = other.viewState;
        instanceState = other.instanceState;
        disposedGenerationCount = other.disposedGenerationCount;
        noWritersGenerationCount = other.noWritersGenerationCount;
        sampleRank = other.sampleRank;
        generationRank = other.generationRank;
        absoluteGenerationRank = other.absoluteGenerationRank;
        instanceHandle.value(other.instanceHandle.value());
        publicationHandle.value(other.publicationHandle.value());
        sourceTimestamp.timeNs(other.sourceTimestamp.timeNs());
    }

    public void data(final T value)
    {
        data = value;
    }

    @Override
    public T getData()
    {
        return data;
    }

    @Override
    public SampleState getSampleState()
    {
        return sampleState;
    }

    @Override
    public ViewState getViewState()
    {
        return viewState;
    }

    @Override
    public InstanceState getInstanceState()
    {
        return instanceState;
    }

    @Override
    public Time getSourceTimestamp()
    {
        return sourceTimestamp;
    }

    @Override
    public ModifiableInstanceHandle getInstanceHandle()
    {
        return instanceHandle;
    }

    @Override
    public ModifiableInstanceHandle getPublicationHandle()
    {
        return publicationHandle;
    }

    @Override
    public int getDisposedGenerationCount()
    {
        return disposedGenerationCount;
    }

    @Override
    public int getNoWritersGenerationCount()
    {
        return noWritersGenerationCount;
    }

    @Override
    public int getSampleRank()
    {
        return sampleRank;
    }

    @Override
    public int getGenerationRank()
    {
        return generationRank;
    }

    @Override
    public int getAbsoluteGenerationRank()
    {
        return absoluteGenerationRank;
    }

    /** A deep copy: metadata and the data itself (through {@code copier}) are detached from the reader. */
    SampleImpl<T> deepCopy(final java.util.function.UnaryOperator<T> copier)
    {
        final SampleImpl<T> copy = new SampleImpl<>(env);
        copy.copyMeta(this);
        copy.data = data == null ? null : copier.apply(data);
        return copy;
    }

    private transient java.util.function.UnaryOperator<T> copier;

    public void copier(final java.util.function.UnaryOperator<T> value)
    {
        copier = value;
    }

    @Override
    public Sample<T> clone()
    {
        return deepCopy(copier == null ? d -> d : copier);
    }

    @Override
    public ServiceEnvironment getEnvironment()
    {
        return env;
    }

    @Override
    public String toString()
    {
        return "Sample[" + sampleState + "," + viewState + "," + instanceState + "," + instanceHandle + ", data=" +
            data + "]";
    }
}
