package io.sirocco.pubsub.status;

import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.event.*;
import org.omg.dds.core.status.*;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.Subscriber;

/**
 * The listener events a DataReader (or a Subscriber, for DataOnReaders) raises. Each is immutable apart from the
 * PSM's source field, set once at construction. Callers name them through {@code Events}.
 */
public interface ReaderEvents
{
    final class DataAvailableEventImpl<TYPE> extends DataAvailableEvent<TYPE>
    {
        private static final long serialVersionUID = 1L;
        private final transient ServiceEnvironment env;
        private final DataAvailableStatus status;

        public DataAvailableEventImpl(final ServiceEnvironment env, final DataReader<TYPE> source, final DataAvailableStatus status)
        {
            super(source);
            this.env = env;
            this.status = status;
        }

        @Override
        public DataAvailableStatus getStatus()
        {
            return status;
        }

        @Override
        @SuppressWarnings("unchecked")
        public DataReader<TYPE> getSource()
        {
            return (DataReader<TYPE>)source;
        }

        @Override
        public DataAvailableEventImpl<TYPE> clone()
        {
            return new DataAvailableEventImpl<>(env, getSource(), status);
        }

        @Override
        public ServiceEnvironment getEnvironment()
        {
            return env;
        }
    }

    final class DataOnReadersEventImpl extends DataOnReadersEvent
    {
        private static final long serialVersionUID = 1L;
        private final transient ServiceEnvironment env;
        private final DataOnReadersStatus status;

        public DataOnReadersEventImpl(final ServiceEnvironment env, final Subscriber source, final DataOnReadersStatus status)
        {
            super(source);
            this.env = env;
            this.status = status;
        }

        @Override
        public DataOnReadersStatus getStatus()
        {
            return status;
        }

        @Override
        @SuppressWarnings("unchecked")
        public Subscriber getSource()
        {
            return (Subscriber)source;
        }

        @Override
        public DataOnReadersEventImpl clone()
        {
            return new DataOnReadersEventImpl(env, getSource(), status);
        }

        @Override
        public ServiceEnvironment getEnvironment()
        {
            return env;
        }
    }

    final class LivelinessChangedEventImpl<TYPE> extends LivelinessChangedEvent<TYPE>
    {
        private static final long serialVersionUID = 1L;
        private final transient ServiceEnvironment env;
        private final LivelinessChangedStatus status;

        public LivelinessChangedEventImpl(final ServiceEnvironment env, final DataReader<TYPE> source, final LivelinessChangedStatus status)
        {
            super(source);
            this.env = env;
            this.status = status;
        }

        @Override
        public LivelinessChangedStatus getStatus()
        {
            return status;
        }

        @Override
        @SuppressWarnings("unchecked")
        public DataReader<TYPE> getSource()
        {
            return (DataReader<TYPE>)source;
        }

        @Override
        public LivelinessChangedEventImpl<TYPE> clone()
        {
            return new LivelinessChangedEventImpl<>(env, getSource(), status);
        }

        @Override
        public ServiceEnvironment getEnvironment()
        {
            return env;
        }
    }

    final class RequestedDeadlineMissedEventImpl<TYPE> extends RequestedDeadlineMissedEvent<TYPE>
    {
        private static final long serialVersionUID = 1L;
        private final transient ServiceEnvironment env;
        private final RequestedDeadlineMissedStatus status;

        public RequestedDeadlineMissedEventImpl(final ServiceEnvironment env, final DataReader<TYPE> source, final RequestedDeadlineMissedStatus status)
        {
            super(source);
            this.env = env;
            this.status = status;
        }

        @Override
        public RequestedDeadlineMissedStatus getStatus()
        {
            return status;
        }

        @Override
        @SuppressWarnings("unchecked")
        public DataReader<TYPE> getSource()
        {
            return (DataReader<TYPE>)source;
        }

        @Override
        public RequestedDeadlineMissedEventImpl<TYPE> clone()
        {
            return new RequestedDeadlineMissedEventImpl<>(env, getSource(), status);
        }

        @Override
        public ServiceEnvironment getEnvironment()
        {
            return env;
        }
    }

    final class RequestedIncompatibleQosEventImpl<TYPE> extends RequestedIncompatibleQosEvent<TYPE>
    {
        private static final long serialVersionUID = 1L;
        private final transient ServiceEnvironment env;
        private final RequestedIncompatibleQosStatus status;

        public RequestedIncompatibleQosEventImpl(final ServiceEnvironment env, final DataReader<TYPE> source, final RequestedIncompatibleQosStatus status)
        {
            super(source);
            this.env = env;
            this.status = status;
        }

        @Override
        public RequestedIncompatibleQosStatus getStatus()
        {
            return status;
        }

        @Override
        @SuppressWarnings("unchecked")
        public DataReader<TYPE> getSource()
        {
            return (DataReader<TYPE>)source;
        }

        @Override
        public RequestedIncompatibleQosEventImpl<TYPE> clone()
        {
            return new RequestedIncompatibleQosEventImpl<>(env, getSource(), status);
        }

        @Override
        public ServiceEnvironment getEnvironment()
        {
            return env;
        }
    }

    final class SampleLostEventImpl<TYPE> extends SampleLostEvent<TYPE>
    {
        private static final long serialVersionUID = 1L;
        private final transient ServiceEnvironment env;
        private final SampleLostStatus status;

        public SampleLostEventImpl(final ServiceEnvironment env, final DataReader<TYPE> source, final SampleLostStatus status)
        {
            super(source);
            this.env = env;
            this.status = status;
        }

        @Override
        public SampleLostStatus getStatus()
        {
            return status;
        }

        @Override
        @SuppressWarnings("unchecked")
        public DataReader<TYPE> getSource()
        {
            return (DataReader<TYPE>)source;
        }

        @Override
        public SampleLostEventImpl<TYPE> clone()
        {
            return new SampleLostEventImpl<>(env, getSource(), status);
        }

        @Override
        public ServiceEnvironment getEnvironment()
        {
            return env;
        }
    }

    final class SampleRejectedEventImpl<TYPE> extends SampleRejectedEvent<TYPE>
    {
        private static final long serialVersionUID = 1L;
        private final transient ServiceEnvironment env;
        private final SampleRejectedStatus status;

        public SampleRejectedEventImpl(final ServiceEnvironment env, final DataReader<TYPE> source, final SampleRejectedStatus status)
        {
            super(source);
            this.env = env;
            this.status = status;
        }

        @Override
        public SampleRejectedStatus getStatus()
        {
            return status;
        }

        @Override
        @SuppressWarnings("unchecked")
        public DataReader<TYPE> getSource()
        {
            return (DataReader<TYPE>)source;
        }

        @Override
        public SampleRejectedEventImpl<TYPE> clone()
        {
            return new SampleRejectedEventImpl<>(env, getSource(), status);
        }

        @Override
        public ServiceEnvironment getEnvironment()
        {
            return env;
        }
    }

    final class SubscriptionMatchedEventImpl<TYPE> extends SubscriptionMatchedEvent<TYPE>
    {
        private static final long serialVersionUID = 1L;
        private final transient ServiceEnvironment env;
        private final SubscriptionMatchedStatus status;

        public SubscriptionMatchedEventImpl(final ServiceEnvironment env, final DataReader<TYPE> source, final SubscriptionMatchedStatus status)
        {
            super(source);
            this.env = env;
            this.status = status;
        }

        @Override
        public SubscriptionMatchedStatus getStatus()
        {
            return status;
        }

        @Override
        @SuppressWarnings("unchecked")
        public DataReader<TYPE> getSource()
        {
            return (DataReader<TYPE>)source;
        }

        @Override
        public SubscriptionMatchedEventImpl<TYPE> clone()
        {
            return new SubscriptionMatchedEventImpl<>(env, getSource(), status);
        }

        @Override
        public ServiceEnvironment getEnvironment()
        {
            return env;
        }
    }
}
