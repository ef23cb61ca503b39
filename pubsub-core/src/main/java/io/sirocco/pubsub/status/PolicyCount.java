package io.sirocco.pubsub.status;

import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.QosPolicy;
import org.omg.dds.core.policy.QosPolicyCount;

/** One entry of an incompatible-QoS status: how many times a policy was found incompatible. Immutable. */
public final class PolicyCount implements QosPolicyCount
{
    private static final long serialVersionUID = 1L;
    private final transient ServiceEnvironment env;
    private final Class<? extends QosPolicy> policyClass;
    private final int count;

    public PolicyCount(final ServiceEnvironment env, final Class<? extends QosPolicy> policyClass, final int count)
    {
        this.env = env;
        this.policyClass = policyClass;
        this.count = count;
    }

    @Override
    public Class<? extends QosPolicy> getPolicyClass()
    {
        return policyClass;
    }

    @Override
    public int getCount()
    {
        return count;
    }

    @Override
    public ServiceEnvironment getEnvironment()
    {
        return env;
    }

    @Override
    public String toString()
    {
        return policyClass.getSimpleName() + "=" + count;
    }
}
