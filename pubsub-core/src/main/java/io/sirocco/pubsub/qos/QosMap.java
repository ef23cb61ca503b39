package io.sirocco.pubsub.qos;

import java.util.AbstractMap;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import io.sirocco.pubsub.qos.Policies.PolicyImpl;
import org.omg.dds.core.EntityQos;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.PolicyFactory;
import org.omg.dds.core.policy.QosPolicy;

/**
 * An immutable entity QoS: a map from policy interface to policy. {@code withPolicy} returns a copy; the
 * {@code java.util.Map} mutators throw {@link UnsupportedOperationException} as AbstractMap does.
 *
 * @param <P> the policy family ({@code QosPolicy.ForDataWriter}, ...).
 * @param <SELF> the concrete QoS class.
 */
public abstract class QosMap<P extends QosPolicy, SELF extends QosMap<P, SELF>>
    extends AbstractMap<Class<? extends P>, P> implements EntityQos<P>
{
    private static final long serialVersionUID = 1L;

    private final transient ServiceEnvironment env;
    private final Map<Class<? extends P>, P> policies;
    private final Class<P> family;

    protected QosMap(final ServiceEnvironment env, final Class<P> family, final Map<Class<? extends P>, P> policies)
    {
        this.env = env;
        this.family = family;
        this.policies = Collections.unmodifiableMap(new LinkedHashMap<>(policies));
    }

    protected abstract SELF copy(Map<Class<? extends P>, P> policies);

    @Override
    public Set<Entry<Class<? extends P>, P>> entrySet()
    {
        return policies.entrySet();
    }

    @Override
    public <POLICY extends P> POLICY get(final Class<POLICY> policyClass)
    {
        return policyClass.cast(policies.get(policyClass));
    }

    /**
     * {@link #get} for the getters that abstract QoS classes share across policy families, where the compiler
     * cannot see that the policy belongs to {@code P}.
     */
    protected final <POLICY extends QosPolicy> POLICY policy(final Class<POLICY> policyClass)
    {
        return policyClass.cast(policies.get(policyClass));
    }

    /** An insertion-ordered policy map keyed by each policy's interface, for the {@code defaults} of a QoS class. */
    @SuppressWarnings("unchecked")
    static <P extends QosPolicy> Map<Class<? extends P>, P> policies(final QosPolicy... list)
    {
        final Map<Class<? extends P>, P> map = new LinkedHashMap<>();
        for (final QosPolicy policy : list)
        {
            map.put((Class<? extends P>)((PolicyImpl)policy).policyClass(), (P)policy);
        }
        return map;
    }

    @SuppressWarnings("unchecked")
    public SELF with(final QosPolicy policy)
    {
        if (!(policy instanceof PolicyImpl impl))
        {
            throw new IllegalArgumentException("not a Sirocco QoS policy: " + policy);
        }
        if (!family.isInstance(policy))
        {
            throw new IllegalArgumentException(impl.policyClass().getSimpleName() + " does not apply to " +
                getClass().getSimpleName().replace("Impl", ""));
        }
        final Map<Class<? extends P>, P> next = new LinkedHashMap<>(policies);
        next.put((Class<? extends P>)impl.policyClass(), (P)policy);
        return copy(next);
    }

    @SuppressWarnings("unchecked")
    public SELF withAll(final QosPolicy... list)
    {
        SELF result = (SELF)this;
        for (final QosPolicy policy : list)
        {
            result = result.with(policy);
        }
        return result;
    }

    /** This QoS with those of the given policies that belong to its family; the others are skipped (copyFromTopicQos). */
    @SuppressWarnings("unchecked")
    public SELF withApplicable(final Collection<? extends QosPolicy> list)
    {
        SELF result = (SELF)this;
        for (final QosPolicy policy : list)
        {
            if (family.isInstance(policy))
            {
                result = result.with(policy);
            }
        }
        return result;
    }

    @Override
    public SELF withPolicy(final P policy)
    {
        return with(policy);
    }

    @Override
    @SuppressWarnings("unchecked")
    public SELF withPolicies(final P... list)
    {
        return withAll(list);
    }

    @Override
    public PolicyFactory getPolicyFactory()
    {
        return PolicyFactory.getPolicyFactory(env);
    }

    @Override
    public ServiceEnvironment getEnvironment()
    {
        return env;
    }
}
