package io.sirocco.pubsub.qos;

import java.util.Arrays;

import io.sirocco.pubsub.core.DurationImpl;
import org.omg.dds.core.Duration;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.QosPolicy;

/**
 * What every Sirocco QoS policy has in common: the {@link PolicyImpl} key of the QoS map and the value-based
 * {@link Base}. The implementations of the PSM's policies live by family in {@code DeliveryPolicies},
 * {@code TimingPolicies}, {@code DataPolicies}, {@code OwnershipPolicies}, {@code LifecyclePolicies},
 * {@code ScopePolicies} and {@code TypePolicies}. Every policy is immutable (each {@code withX} returns a new one), so
 * policies are shared freely between threads. Defaults are the DDS 1.4 defaults (writer RELIABLE with 100 ms
 * max_blocking_time is applied by the writer QoS, not here). Equality is by value so that QoS objects compare
 * naturally.
 */
public final class Policies
{
    private Policies()
    {
    }

    /** The policy interface a Sirocco policy implements: the key of the QoS map. */
    public interface PolicyImpl extends QosPolicy
    {
        Class<? extends QosPolicy> policyClass();
    }

    abstract static class Base implements PolicyImpl
    {
        private static final long serialVersionUID = 1L;
        final transient ServiceEnvironment env;

        Base(final ServiceEnvironment env)
        {
            this.env = env;
        }

        @Override
        public ServiceEnvironment getEnvironment()
        {
            return env;
        }

        abstract Object[] values();

        @Override
        public boolean equals(final Object other)
        {
            return other != null && other.getClass() == getClass() && Arrays.deepEquals(values(), ((Base)other).values());
        }

        @Override
        public int hashCode()
        {
            return Arrays.deepHashCode(values());
        }

        @Override
        public String toString()
        {
            return policyClass().getSimpleName() + Arrays.deepToString(values());
        }
    }

    static Duration dur(final ServiceEnvironment env, final long ns)
    {
        return new DurationImpl(env, ns);
    }
}
