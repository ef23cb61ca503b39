package io.sirocco.pubsub.qos;

import java.util.concurrent.TimeUnit;

import io.sirocco.pubsub.core.DurationImpl;
import org.omg.dds.core.Duration;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.EntityFactory;
import org.omg.dds.core.policy.QosPolicy;
import org.omg.dds.core.policy.ReaderDataLifecycle;
import org.omg.dds.core.policy.WriterDataLifecycle;

/**
 * How entities and instances are created and retired: entity factory auto-enable, the writer's dispose of
 * unregistered instances and the reader's purge delays. Immutable, so shared freely between threads; see {@link
 * Policies} for what they have in common.
 */
public final class LifecyclePolicies
{
    private LifecyclePolicies()
    {
    }

    public static final class EntityFactoryImpl extends Policies.Base implements EntityFactory
    {
        private static final long serialVersionUID = 1L;
        private final boolean autoEnable;

        public EntityFactoryImpl(final ServiceEnvironment env, final boolean autoEnable)
        {
            super(env);
            this.autoEnable = autoEnable;
        }

        public Class<? extends QosPolicy> policyClass()
        {
            return EntityFactory.class;
        }

        Object[] values()
        {
            return new Object[] {autoEnable};
        }

        public boolean isAutoEnableCreatedEntities()
        {
            return autoEnable;
        }

        public EntityFactory withAutoEnableCreatedEntities(final boolean v)
        {
            return new EntityFactoryImpl(env, v);
        }
    }

    public static final class WriterDataLifecycleImpl extends Policies.Base implements WriterDataLifecycle
    {
        private static final long serialVersionUID = 1L;
        private final boolean autodispose;

        public WriterDataLifecycleImpl(final ServiceEnvironment env, final boolean autodispose)
        {
            super(env);
            this.autodispose = autodispose;
        }

        public Class<? extends QosPolicy> policyClass()
        {
            return WriterDataLifecycle.class;
        }

        Object[] values()
        {
            return new Object[] {autodispose};
        }

        public boolean isAutDisposeUnregisteredInstances()
        {
            return autodispose;
        }

        public WriterDataLifecycle withAutDisposeUnregisteredInstances(final boolean v)
        {
            return new WriterDataLifecycleImpl(env, v);
        }
    }

    public static final class ReaderDataLifecycleImpl extends Policies.Base implements ReaderDataLifecycle
    {
        private static final long serialVersionUID = 1L;
        private final long noWritersNs;
        private final long disposedNs;

        public ReaderDataLifecycleImpl(final ServiceEnvironment env, final long noWritersNs, final long disposedNs)
        {
            super(env);
            this.noWritersNs = noWritersNs;
            this.disposedNs = disposedNs;
        }

        public Class<? extends QosPolicy> policyClass()
        {
            return ReaderDataLifecycle.class;
        }

        Object[] values()
        {
            return new Object[] {noWritersNs, disposedNs};
        }

        public Duration getAutoPurgeNoWriterSamplesDelay()
        {
            return Policies.dur(env, noWritersNs);
        }

        public Duration getAutoPurgeDisposedSamplesDelay()
        {
            return Policies.dur(env, disposedNs);
        }

        public ReaderDataLifecycle withAutoPurgeNoWriterSamplesDelay(final Duration d)
        {
            return new ReaderDataLifecycleImpl(env, DurationImpl.toNanos(d), disposedNs);
        }

        public ReaderDataLifecycle withAutoPurgeNoWriterSamplesDelay(final long d, final TimeUnit unit)
        {
            return new ReaderDataLifecycleImpl(env, unit.toNanos(d), disposedNs);
        }

        public ReaderDataLifecycle withAutoPurgeDisposedSamplesDelay(final Duration d)
        {
            return new ReaderDataLifecycleImpl(env, noWritersNs, DurationImpl.toNanos(d));
        }

        public ReaderDataLifecycle withAutoPurgeDisposedSamplesDelay(final long d, final TimeUnit unit)
        {
            return new ReaderDataLifecycleImpl(env, noWritersNs, unit.toNanos(d));
        }
    }
}
