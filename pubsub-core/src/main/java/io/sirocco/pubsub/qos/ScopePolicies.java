package io.sirocco.pubsub.qos;

import java.util.Collection;
import java.util.Collections;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.Partition;
import org.omg.dds.core.policy.Presentation;
import org.omg.dds.core.policy.QosPolicy;
import org.omg.dds.core.policy.TransportPriority;

/**
 * Which entities see each other and how their changes are grouped: partition, presentation and the transport
 * priority hint. Immutable, so shared freely between threads; see {@link Policies} for what they have in common.
 */
public final class ScopePolicies
{
    private ScopePolicies()
    {
    }

    public static final class PartitionImpl extends Policies.Base implements Partition
    {
        private static final long serialVersionUID = 1L;
        private final Set<String> names;

        public PartitionImpl(final ServiceEnvironment env, final Collection<String> names)
        {
            super(env);
            this.names = Collections.unmodifiableSet(new TreeSet<>(names));
        }

        public Class<? extends QosPolicy> policyClass()
        {
            return Partition.class;
        }

        Object[] values()
        {
            return new Object[] {names.toArray()};
        }

        public Set<String> getName()
        {
            return names;
        }

        public Partition withName(final Collection<String> n)
        {
            return new PartitionImpl(env, n);
        }
    }

    public static final class PresentationImpl extends Policies.Base implements Presentation
    {
        private static final long serialVersionUID = 1L;
        private final AccessScopeKind scope;
        private final boolean coherent;
        private final boolean ordered;

        public PresentationImpl(final ServiceEnvironment env, final AccessScopeKind scope, final boolean coherent,
            final boolean ordered)
        {
            super(env);
            this.scope = Objects.requireNonNull(scope, "Presentation access scope");
            this.coherent = coherent;
            this.ordered = ordered;
        }

        public Class<? extends QosPolicy> policyClass()
        {
            return Presentation.class;
        }

        Object[] values()
        {
            return new Object[] {scope, coherent, ordered};
        }

        public AccessScopeKind getAccessScope()
        {
            return scope;
        }

        public boolean isCoherentAccess()
        {
            return coherent;
        }

        public boolean isOrderedAccess()
        {
            return ordered;
        }

        public Presentation withAccessScope(final AccessScopeKind s)
        {
            return new PresentationImpl(env, s, coherent, ordered);
        }

        public Presentation withCoherentAccess(final boolean v)
        {
            return new PresentationImpl(env, scope, v, ordered);
        }

        public Presentation withOrderedAccess(final boolean v)
        {
            return new PresentationImpl(env, scope, coherent, v);
        }

        public Presentation withInstance()
        {
            return withAccessScope(AccessScopeKind.INSTANCE);
        }

        public Presentation withTopic()
        {
            return withAccessScope(AccessScopeKind.TOPIC);
        }

        public Presentation withGroup()
        {
            return withAccessScope(AccessScopeKind.GROUP);
        }

        public Comparable<Presentation> requestedOfferedContract()
        {
            return this;
        }

        public int compareTo(final Presentation o)
        {
            final int byScope = scope.compareTo(o.getAccessScope());
            if (byScope != 0)
            {
                return byScope;
            }
            final int mine = (coherent ? 2 : 0) + (ordered ? 1 : 0);
            final int theirs = (o.isCoherentAccess() ? 2 : 0) + (o.isOrderedAccess() ? 1 : 0);
            return Integer.compare(mine, theirs);
        }
    }

    public static final class TransportPriorityImpl extends Policies.Base implements TransportPriority
    {
        private static final long serialVersionUID = 1L;
        private final int value;

        public TransportPriorityImpl(final ServiceEnvironment env, final int value)
        {
            super(env);
            this.value = value;
        }

        public Class<? extends QosPolicy> policyClass()
        {
            return TransportPriority.class;
        }

        Object[] values()
        {
            return new Object[] {value};
        }

        public int getValue()
        {
            return value;
        }

        public TransportPriority withValue(final int v)
        {
            return new TransportPriorityImpl(env, v);
        }
    }
}
