package io.sirocco.pubsub.status;

import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.event.*;
import org.omg.dds.core.status.*;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.topic.Topic;

/** The listener events of the PSM: each carries its source entity and a status snapshot. */
public final class Events
{
    private Events()
    {
    }

    public static final class DataAvailableEventImpl<TYPE> extends DataAvailableEvent<TYPE>
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

    public static final class DataOnReadersEventImpl extends DataOnReadersEvent
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

    public static final class InconsistentTopicEventImpl<TYPE> extends InconsistentTopicEvent<TYPE>
    {
        private static final long serialVersionUID = 1L;
        private final transient ServiceEnvironment env;
        private final InconsistentTopicStatus status;

        public InconsistentTopicEventImpl(final ServiceEnvironment env, final Topic<TYPE> source, final InconsistentTopicStatus status)
        {
            super(source);
            this.env = env;
            this.status = status;
        }

        @Override
        public InconsistentTopicStatus getStatus()
        {
            return status;
        }

        @Override
        @SuppressWarnings("unchecked")
        public Topic<TYPE> getSource()
        {
            return (Topic<TYPE>)source;
        }

        @Override
        public InconsistentTopicEventImpl<TYPE> clone()
        {
            return new InconsistentTopicEventImpl<>(env, getSource(), status);
        }

        @Override
        public ServiceEnvironment getEnvironment()
        {
            return env;
        }
    }

    public static final class LivelinessChangedEventImpl<TYPE> extends LivelinessChangedEvent<TYPE>
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

    public static final class LivelinessLostEventImpl<TYPE> extends LivelinessLostEvent<TYPE>
    {
        private static final long serialVersionUID = 1L;
        private final transient ServiceEnvironment env;
        private final LivelinessLostStatus status;

        public LivelinessLostEventImpl(final ServiceEnvironment env, final DataWriter<TYPE> source, final LivelinessLostStatus status)
        {
            super(source);
            this.env = env;
            this.status = status;
        }

        @Override
        public LivelinessLostStatus getStatus()
        {
            return status;
        }

        @Override
        @SuppressWarnings("unchecked")
        public DataWriter<TYPE> getSource()
        {
            return (DataWriter<TYPE>)source;
        }

        @Override
        public LivelinessLostEventImpl<TYPE> clone()
        {
            return new LivelinessLostEventImpl<>(env, getSource(), status);
        }

        @Override
        public ServiceEnvironment getEnvironment()
        {
            return env;
        }
    }

    public static final class OfferedDeadlineMissedEventImpl<TYPE> extends OfferedDeadlineMissedEvent<TYPE>
    {
        private static final long serialVersionUID = 1L;
        private final transient ServiceEnvironment env;
        private final OfferedDeadlineMissedStatus status;

        public OfferedDeadlineMissedEventImpl(final ServiceEnvironment env, final DataWriter<TYPE> source, final OfferedDeadlineMissedStatus status)
        {
            super(source);
            this.env = env;
            this.status = status;
        }

        @Override
        public OfferedDeadlineMissedStatus getStatus()
        {
            return status;
        }

        @Override
        @SuppressWarnings("unchecked")
        public DataWriter<TYPE> getSource()
        {
            return (DataWriter<TYPE>)source;
        }

        @Override
        public OfferedDeadlineMissedEventImpl<TYPE> clone()
        {
            return new OfferedDeadlineMissedEventImpl<>(env, getSource(), status);
        }

        @Override
        public ServiceEnvironment getEnvironment()
        {
            return env;
        }
    }

    public static final class OfferedIncompatibleQosEventImpl<TYPE> extends OfferedIncompatibleQosEvent<TYPE>
    {
        private static final long serialVersionUID = 1L;
        private final transient ServiceEnvironment env;
        private final OfferedIncompatibleQosStatus status;

        public OfferedIncompatibleQosEventImpl(final ServiceEnvironment env, final DataWriter<TYPE> source, final OfferedIncompatibleQosStatus status)
        {
            super(source);
            this.env = env;
            this.status = status;
        }

        @Override
        public OfferedIncompatibleQosStatus getStatus()
        {
            return status;
        }

        @Override
        @SuppressWarnings("unchecked")
        public DataWriter<TYPE> getSource()
        {
            return (DataWriter<TYPE>)source;
        }

        @Override
        public OfferedIncompatibleQosEventImpl<TYPE> clone()
        {
            return new OfferedIncompatibleQosEventImpl<>(env, getSource(), status);
        }

        @Override
        public ServiceEnvironment getEnvironment()
        {
            return env;
        }
    }

    public static final class PublicationMatchedEventImpl<TYPE> extends PublicationMatchedEvent<TYPE>
    {
        private static final long serialVersionUID = 1L;
        private final transient ServiceEnvironment env;
        private final PublicationMatchedStatus status;

        public PublicationMatchedEventImpl(final ServiceEnvironment env, final DataWriter<TYPE> source, final PublicationMatchedStatus status)
        {
            super(source);
            this.env = env;
            this.status = status;
        }

        @Override
        public PublicationMatchedStatus getStatus()
        {
            return status;
        }

        @Override
        @SuppressWarnings("unchecked")
        public DataWriter<TYPE> getSource()
        {
            return (DataWriter<TYPE>)source;
        }

        @Override
        public PublicationMatchedEventImpl<TYPE> clone()
        {
            return new PublicationMatchedEventImpl<>(env, getSource(), status);
        }

        @Override
        public ServiceEnvironment getEnvironment()
        {
            return env;
        }
    }

    public static final class RequestedDeadlineMissedEventImpl<TYPE> extends RequestedDeadlineMissedEvent<TYPE>
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

    public static final class RequestedIncompatibleQosEventImpl<TYPE> extends RequestedIncompatibleQosEvent<TYPE>
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

    public static final class SampleLostEventImpl<TYPE> extends SampleLostEvent<TYPE>
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

    public static final class SampleRejectedEventImpl<TYPE> extends SampleRejectedEvent<TYPE>
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

    public static final class SubscriptionMatchedEventImpl<TYPE> extends SubscriptionMatchedEvent<TYPE>
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
