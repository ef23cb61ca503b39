package io.sirocco.pubsub.domain;

import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.sirocco.pubsub.SiroccoServiceEnvironment;
import io.sirocco.pubsub.core.DurationImpl;
import io.sirocco.pubsub.core.GuardConditionImpl;
import io.sirocco.pubsub.core.HandleImpl;
import io.sirocco.pubsub.core.StatusKinds;
import io.sirocco.pubsub.core.TimeImpl;
import io.sirocco.pubsub.core.WaitSetImpl;
import io.sirocco.pubsub.qos.PolicyFactoryImpl;
import io.sirocco.pubsub.qos.xml.QosProviderImpl;
import io.sirocco.pubsub.topic.TypeSupportImpl;
import io.sirocco.pubsub.topic.builtin.KeyedBytesImpl;
import io.sirocco.pubsub.topic.builtin.KeyedStringImpl;
import org.omg.dds.core.Duration;
import org.omg.dds.core.GuardCondition;
import org.omg.dds.core.InstanceHandle;
import org.omg.dds.core.ModifiableInstanceHandle;
import org.omg.dds.core.ModifiableTime;
import org.omg.dds.core.QosProvider;
import org.omg.dds.core.Time;
import org.omg.dds.core.WaitSet;
import org.omg.dds.core.policy.PolicyFactory;
import org.omg.dds.core.status.Status;
import org.omg.dds.domain.DomainParticipantFactory;
import org.omg.dds.type.TypeSupport;
import org.omg.dds.type.builtin.KeyedBytes;
import org.omg.dds.type.builtin.KeyedString;
import org.omg.dds.type.dynamic.DynamicDataFactory;
import org.omg.dds.type.dynamic.DynamicTypeFactory;

/**
 * Every method of the PSM's service provider interface. Features not built yet throw, naming themselves. It sits at
 * the top of the module (it makes participants, policies and type supports); {@link SiroccoServiceEnvironment} finds
 * it through {@link Factory}, registered in {@code META-INF/services}, and so depends on nothing here.
 *
 * <p>Threads: any. The participant factory is created once, lazily, under the SPI's monitor.
 */
public final class SiroccoSpi implements SiroccoServiceEnvironment.Spi
{
    /** What {@link java.util.ServiceLoader} instantiates for {@link SiroccoServiceEnvironment}. */
    public static final class Factory implements SiroccoServiceEnvironment.Spi.Factory
    {
        @Override
        public SiroccoServiceEnvironment.Spi create(final SiroccoServiceEnvironment env)
        {
            return new SiroccoSpi(env);
        }
    }

    private final SiroccoServiceEnvironment env;
    private final PolicyFactoryImpl policyFactory;
    private final DurationImpl infinite;
    private final DurationImpl zero;
    private final HandleImpl nil;
    private volatile ParticipantFactoryImpl participantFactory;

    public SiroccoSpi(final SiroccoServiceEnvironment env)
    {
        this.env = env;
        this.policyFactory = new PolicyFactoryImpl(env);
        this.infinite = new DurationImpl(env, DurationImpl.INFINITE_NS);
        this.zero = new DurationImpl(env, 0);
        this.nil = new HandleImpl(env, 0);
    }

    @Override
    public DomainParticipantFactory getParticipantFactory()
    {
        ParticipantFactoryImpl factory = participantFactory;
        if (factory == null)
        {
            synchronized (this)
            {
                factory = participantFactory;
                if (factory == null)
                {
                    factory = new ParticipantFactoryImpl(env);
                    participantFactory = factory;
                }
            }
        }
        return factory;
    }

    @Override
    public DynamicTypeFactory getTypeFactory()
    {
        throw new UnsupportedOperationException("XTypes DynamicTypeFactory (dynamic types) is not implemented in " +
            "Sirocco yet; use IDL-generated types");
    }

    @Override
    public <TYPE> TypeSupport<TYPE> newTypeSupport(final Class<TYPE> type, final String registeredName)
    {
        return TypeSupportImpl.forClass(env, type, registeredName);
    }

    @Override
    public Duration newDuration(final long duration, final TimeUnit unit)
    {
        return DurationImpl.of(env, duration, unit);
    }

    @Override
    public Duration infiniteDuration()
    {
        return infinite;
    }

    @Override
    public Duration zeroDuration()
    {
        return zero;
    }

    @Override
    public ModifiableTime newTime(final long time, final TimeUnit unit)
    {
        return new TimeImpl(env, unit.toNanos(time));
    }

    @Override
    public Time invalidTime()
    {
        return new TimeImpl(env, TimeImpl.INVALID_NS);
    }

    @Override
    public ModifiableInstanceHandle newInstanceHandle()
    {
        return new HandleImpl(env, 0);
    }

    @Override
    public InstanceHandle nilHandle()
    {
        return nil;
    }

    @Override
    public GuardCondition newGuardCondition()
    {
        return new GuardConditionImpl(env);
    }

    @Override
    public WaitSet newWaitSet()
    {
        return new WaitSetImpl(env);
    }

    @Override
    public Set<Class<? extends Status>> allStatusKinds()
    {
        return StatusKinds.set(StatusKinds.ALL);
    }

    @Override
    public Set<Class<? extends Status>> noStatusKinds()
    {
        return StatusKinds.set(0);
    }

    @Override
    public QosProvider newQosProvider(final String uri, final String profile)
    {
        return QosProviderImpl.load(env, uri, profile);
    }

    @Override
    public PolicyFactory getPolicyFactory()
    {
        return policyFactory;
    }

    @Override
    public DynamicDataFactory getDynamicDataFactory()
    {
        throw new UnsupportedOperationException("XTypes DynamicDataFactory (dynamic data) is not implemented in " +
            "Sirocco yet; use IDL-generated types");
    }

    @Override
    public KeyedString newKeyedString()
    {
        return new KeyedStringImpl(env);
    }

    @Override
    public KeyedBytes newKeyedBytes()
    {
        return new KeyedBytesImpl(env);
    }

    @Override
    public HandleImpl nil()
    {
        return nil;
    }
}
