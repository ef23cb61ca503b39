package io.sirocco.pubsub.qos;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.DataRepresentation;
import org.omg.dds.core.policy.QosPolicy;
import org.omg.dds.core.policy.TypeConsistencyEnforcement;

/**
 * The type policies: data representation and type consistency enforcement. Immutable, so shared freely between
 * threads; see {@link Policies} for what they have in common.
 */
public final class TypePolicies
{
    private TypePolicies()
    {
    }

    public static final class RepresentationImpl extends Policies.Base implements DataRepresentation
    {
        private static final long serialVersionUID = 1L;
        private final List<Short> value;

        public RepresentationImpl(final ServiceEnvironment env, final List<Short> value)
        {
            super(env);
            this.value = List.copyOf(value);
        }

        public Class<? extends QosPolicy> policyClass()
        {
            return DataRepresentation.class;
        }

        Object[] values()
        {
            return new Object[] {value};
        }

        public List<Short> getValue()
        {
            return value;
        }

        public DataRepresentation withValue(final List<Short> v)
        {
            return new RepresentationImpl(env, v);
        }

        public DataRepresentation withValue(final short... v)
        {
            final Short[] boxed = new Short[v.length];
            for (int i = 0; i < v.length; i++)
            {
                boxed[i] = v[i];
            }
            return new RepresentationImpl(env, Arrays.asList(boxed));
        }

        public Comparable<DataRepresentation> requestedOfferedContract()
        {
            return this;
        }

        /** Compatible (0) when the offered first representation is among the requested ones. */
        public int compareTo(final DataRepresentation o)
        {
            return value.isEmpty() || o.getValue().isEmpty() || o.getValue().contains(value.get(0)) ||
                value.contains(o.getValue().get(0)) ? 0 : -1;
        }
    }

    public static final class TypeConsistencyImpl extends Policies.Base implements TypeConsistencyEnforcement
    {
        private static final long serialVersionUID = 1L;
        private final Kind kind;

        public TypeConsistencyImpl(final ServiceEnvironment env, final Kind kind)
        {
            super(env);
            this.kind = Objects.requireNonNull(kind, "TypeConsistencyEnforcement kind");
        }

        public Class<? extends QosPolicy> policyClass()
        {
            return TypeConsistencyEnforcement.class;
        }

        Object[] values()
        {
            return new Object[] {kind};
        }

        public Kind getKind()
        {
            return kind;
        }

        public TypeConsistencyEnforcement withKind(final Kind k)
        {
            return new TypeConsistencyImpl(env, k);
        }

        public TypeConsistencyEnforcement withExactTypeTypeConsistency()
        {
            return withKind(Kind.EXACT_TYPE_TYPE_CONSISTENCY);
        }

        public TypeConsistencyEnforcement withExactNameTypeConsistency()
        {
            return withKind(Kind.EXACT_NAME_TYPE_CONSISTENCY);
        }

        public TypeConsistencyEnforcement withDeclaredTypeConsistency()
        {
            return withKind(Kind.DECLARED_TYPE_CONSISTENCY);
        }

        public TypeConsistencyEnforcement withAssignableTypeConsistency()
        {
            return withKind(Kind.ASSIGNABLE_TYPE_CONSISTENCY);
        }

        public Comparable<TypeConsistencyEnforcement> requestedOfferedContract()
        {
            return this;
        }

        public int compareTo(final TypeConsistencyEnforcement o)
        {
            return 0;
        }
    }
}
