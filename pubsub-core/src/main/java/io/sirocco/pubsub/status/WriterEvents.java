package io.sirocco.pubsub.status;

import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.event.*;
import org.omg.dds.core.status.*;
import org.omg.dds.pub.DataWriter;

/**
 * The listener events a DataWriter raises. Each is immutable apart from the PSM's source field, set once at
 * construction. Callers name them through {@code Events}.
 */
public interface WriterEvents
{
    final class LivelinessLostEventImpl<TYPE> extends LivelinessLostEvent<TYPE>
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

    final class OfferedDeadlineMissedEventImpl<TYPE> extends OfferedDeadlineMissedEvent<TYPE>
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

    final class OfferedIncompatibleQosEventImpl<TYPE> extends OfferedIncompatibleQosEvent<TYPE>
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

    final class PublicationMatchedEventImpl<TYPE> extends PublicationMatchedEvent<TYPE>
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
}
