package io.sirocco.pubsub.qos;

import java.util.Objects;

import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.Ownership;
import org.omg.dds.core.policy.OwnershipStrength;
import org.omg.dds.core.policy.QosPolicy;

/**
 * Ownership of instances (shared or exclusive) and a writer's ownership strength. Immutable, so shared freely
 * between threads; see {@link Policies} for what they have in common.
 */
public final class OwnershipPolicies
{
    private OwnershipPolicies()
    {
    }

    public static final class OwnershipImpl extends Policies.Base implements Ownership
    {
        private static final long serialVersionUID = 1L;
        private final Kind kind;

        public OwnershipImpl(final ServiceEnvironment env, final Kind kind)
        {
            super(env);
            this.kind = Objects.requireNonNull(kind, "Ownership kind");
        }

        public Class<? extends QosPolicy> policyClass()
        {
            return Ownership.class;
        }

        Object[] values()
        {
            return new Object[] {kind};
        }

        public Kind getKind()
        {
            return kind;
        }

        public Ownership withKind(final Kind k)
        {
            return new OwnershipImpl(env, k);
        }

        public Ownership withShared()
        {
            return withKind(Kind.SHARED);
        }

        public Ownership withExclusive()
        {
            return withKind(Kind.EXCLUSIVE);
        }

        public Comparable<Ownership> requestedOfferedContract()
        {
            return this;
        }

        public int compareTo(final Ownership o)
        {
            return kind.compareTo(o.getKind());
        }
    }

    public static final class OwnershipStrengthImpl extends Policies.Base implements OwnershipStrength
    {
        private static final long serialVersionUID = 1L;
        private final int value;

        public OwnershipStrengthImpl(final ServiceEnvironment env, final int value)
        {
            super(env);
            this.value = value;
        }

        public Class<? extends QosPolicy> policyClass()
        {
            return OwnershipStrength.class;
        }

        Object[] values()
        {
            return new Object[] {value};
        }

        public int getValue()
        {
            return value;
        }

        public OwnershipStrength withValue(final int v)
        {
            return new OwnershipStrengthImpl(env, v);
        }
    }
}
