package io.sirocco.pubsub.core;

import org.omg.dds.core.AlreadyClosedException;
import org.omg.dds.core.IllegalOperationException;
import org.omg.dds.core.ImmutablePolicyException;
import org.omg.dds.core.InconsistentPolicyException;
import org.omg.dds.core.NotEnabledException;
import org.omg.dds.core.OutOfResourcesException;
import org.omg.dds.core.PreconditionNotMetException;
import org.omg.dds.core.ServiceEnvironment;

/**
 * Concrete subclasses of the PSM's abstract spec exceptions. Every message names the entity (kind, topic, handle)
 * and, where one is involved, the QoS policy, because that is what a user needs to fix the call.
 */
public final class DdsExceptions
{
    private DdsExceptions()
    {
    }

    public static AlreadyClosedException alreadyClosed(final ServiceEnvironment env, final String entity)
    {
        return new Closed(env, entity + " is already closed");
    }

    public static NotEnabledException notEnabled(final ServiceEnvironment env, final String entity)
    {
        return new NotEnabled(env, entity + " is not enabled; call enable() first (EntityFactory autoenable is off)");
    }

    public static PreconditionNotMetException precondition(final ServiceEnvironment env, final String message)
    {
        return new Precondition(env, message);
    }

    public static InconsistentPolicyException inconsistent(final ServiceEnvironment env, final String message)
    {
        return new Inconsistent(env, message);
    }

    public static ImmutablePolicyException immutable(final ServiceEnvironment env, final String message)
    {
        return new Immutable(env, message);
    }

    public static OutOfResourcesException outOfResources(final ServiceEnvironment env, final String message)
    {
        return new OutOfResources(env, message);
    }

    public static IllegalOperationException illegalOperation(final ServiceEnvironment env, final String message)
    {
        return new IllegalOperation(env, message);
    }

    static final class Closed extends AlreadyClosedException
    {
        private static final long serialVersionUID = 1L;
        private final transient ServiceEnvironment env;

        Closed(final ServiceEnvironment env, final String message)
        {
            super(message);
            this.env = env;
        }

        @Override
        public ServiceEnvironment getEnvironment()
        {
            return env;
        }
    }

    static final class NotEnabled extends NotEnabledException
    {
        private static final long serialVersionUID = 1L;
        private final transient ServiceEnvironment env;

        NotEnabled(final ServiceEnvironment env, final String message)
        {
            super(message);
            this.env = env;
        }

        @Override
        public ServiceEnvironment getEnvironment()
        {
            return env;
        }
    }

    static final class Precondition extends PreconditionNotMetException
    {
        private static final long serialVersionUID = 1L;
        private final transient ServiceEnvironment env;

        Precondition(final ServiceEnvironment env, final String message)
        {
            super(message);
            this.env = env;
        }

        @Override
        public ServiceEnvironment getEnvironment()
        {
            return env;
        }
    }

    static final class Inconsistent extends InconsistentPolicyException
    {
        private static final long serialVersionUID = 1L;
        private final transient ServiceEnvironment env;

        Inconsistent(final ServiceEnvironment env, final String message)
        {
            super(message);
            this.env = env;
        }

        @Override
        public ServiceEnvironment getEnvironment()
        {
            return env;
        }
    }

    static final class Immutable extends ImmutablePolicyException
    {
        private static final long serialVersionUID = 1L;
        private final transient ServiceEnvironment env;

        Immutable(final ServiceEnvironment env, final String message)
        {
            super(message);
            this.env = env;
        }

        @Override
        public ServiceEnvironment getEnvironment()
        {
            return env;
        }
    }

    static final class OutOfResources extends OutOfResourcesException
    {
        private static final long serialVersionUID = 1L;
        private final transient ServiceEnvironment env;

        OutOfResources(final ServiceEnvironment env, final String message)
        {
            super(message);
            this.env = env;
        }

        @Override
        public ServiceEnvironment getEnvironment()
        {
            return env;
        }
    }

    static final class IllegalOperation extends IllegalOperationException
    {
        private static final long serialVersionUID = 1L;
        private final transient ServiceEnvironment env;

        IllegalOperation(final ServiceEnvironment env, final String message)
        {
            super(message);
            this.env = env;
        }

        @Override
        public ServiceEnvironment getEnvironment()
        {
            return env;
        }
    }
}
