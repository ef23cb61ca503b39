package io.sirocco.pubsub.core;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;

import org.omg.dds.core.status.DataAvailableStatus;
import org.omg.dds.core.status.DataOnReadersStatus;
import org.omg.dds.core.status.InconsistentTopicStatus;
import org.omg.dds.core.status.LivelinessChangedStatus;
import org.omg.dds.core.status.LivelinessLostStatus;
import org.omg.dds.core.status.OfferedDeadlineMissedStatus;
import org.omg.dds.core.status.OfferedIncompatibleQosStatus;
import org.omg.dds.core.status.PublicationMatchedStatus;
import org.omg.dds.core.status.RequestedDeadlineMissedStatus;
import org.omg.dds.core.status.RequestedIncompatibleQosStatus;
import org.omg.dds.core.status.SampleLostStatus;
import org.omg.dds.core.status.SampleRejectedStatus;
import org.omg.dds.core.status.Status;
import org.omg.dds.core.status.SubscriptionMatchedStatus;

/** The status kinds as bits, so that masks and change flags are plain ints. */
public final class StatusKinds
{
    private static final Class<?>[] KINDS = {
        InconsistentTopicStatus.class, OfferedDeadlineMissedStatus.class, RequestedDeadlineMissedStatus.class,
        OfferedIncompatibleQosStatus.class, RequestedIncompatibleQosStatus.class, SampleLostStatus.class,
        SampleRejectedStatus.class, DataOnReadersStatus.class, DataAvailableStatus.class, LivelinessLostStatus.class,
        LivelinessChangedStatus.class, PublicationMatchedStatus.class, SubscriptionMatchedStatus.class,
    };

    public static final int INCONSISTENT_TOPIC = 1;
    public static final int OFFERED_DEADLINE_MISSED = 1 << 1;
    public static final int REQUESTED_DEADLINE_MISSED = 1 << 2;
    public static final int OFFERED_INCOMPATIBLE_QOS = 1 << 3;
    public static final int REQUESTED_INCOMPATIBLE_QOS = 1 << 4;
    public static final int SAMPLE_LOST = 1 << 5;
    public static final int SAMPLE_REJECTED = 1 << 6;
    public static final int DATA_ON_READERS = 1 << 7;
    public static final int DATA_AVAILABLE = 1 << 8;
    public static final int LIVELINESS_LOST = 1 << 9;
    public static final int LIVELINESS_CHANGED = 1 << 10;
    public static final int PUBLICATION_MATCHED = 1 << 11;
    public static final int SUBSCRIPTION_MATCHED = 1 << 12;
    public static final int ALL = (1 << KINDS.length) - 1;

    private StatusKinds()
    {
    }

    public static int bit(final Class<?> kind)
    {
        for (int i = 0; i < KINDS.length; i++)
        {
            if (KINDS[i] == kind)
            {
                return 1 << i;
            }
        }
        throw new IllegalArgumentException("not a DDS status kind: " + kind);
    }

    /** A null collection means every status, as the PSM's listener setters without a mask do. */
    public static int mask(final Collection<Class<? extends Status>> kinds)
    {
        if (kinds == null)
        {
            return ALL;
        }
        int mask = 0;
        for (final Class<? extends Status> kind : kinds)
        {
            mask |= bit(kind);
        }
        return mask;
    }

    @SuppressWarnings("unchecked")
    public static Set<Class<? extends Status>> set(final int mask)
    {
        final Set<Class<? extends Status>> set = new LinkedHashSet<>();
        for (int i = 0; i < KINDS.length; i++)
        {
            if ((mask & (1 << i)) != 0)
            {
                set.add((Class<? extends Status>)KINDS[i]);
            }
        }
        return Collections.unmodifiableSet(set);
    }
}
