package io.sirocco.pubsub.status;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.QosPolicy;
import org.omg.dds.core.policy.QosPolicyCount;
import org.omg.dds.core.status.OfferedIncompatibleQosStatus;
import org.omg.dds.core.status.RequestedIncompatibleQosStatus;

/**
 * The counters behind a writer's OfferedIncompatibleQosStatus or a reader's RequestedIncompatibleQosStatus: each
 * discovered incompatible endpoint counts once, per failed policy too, until it is gone.
 *
 * <p>Not thread-safe: the owning DataWriter or DataReader guards it with its status lock (discovery thread and
 * application threads).
 */
public final class IncompatibleQosCounts
{
    private final Set<Long> peers = new HashSet<>();
    private final Map<Class<? extends QosPolicy>, Integer> perPolicy = new LinkedHashMap<>();
    private int total;
    private int totalChange;
    private Class<? extends QosPolicy> last;

    /**
     * Counts an incompatible endpoint and the policies it {@code failed} (the first is the status's last policy).
     *
     * @return false when that endpoint was counted already.
     */
    public boolean add(final long peerGuid, final List<Class<? extends QosPolicy>> failed)
    {
        if (!peers.add(peerGuid))
        {
            return false;
        }
        total++;
        totalChange++;
        for (final Class<? extends QosPolicy> policy : failed)
        {
            perPolicy.merge(policy, 1, Integer::sum);
        }
        last = failed.get(0);
        return true;
    }

    /** The endpoint is gone: it counts again if it is discovered again. */
    public void remove(final long peerGuid)
    {
        peers.remove(peerGuid);
    }

    /** The writer's status; resets the change count. */
    public OfferedIncompatibleQosStatus offered(final ServiceEnvironment env)
    {
        final OfferedIncompatibleQosStatus status = new Statuses.OfferedIncompatibleQosStatusImpl(env, total,
            totalChange, last, policyCounts(env));
        totalChange = 0;
        return status;
    }

    /** The reader's status; resets the change count. */
    public RequestedIncompatibleQosStatus requested(final ServiceEnvironment env)
    {
        final RequestedIncompatibleQosStatus status = new Statuses.RequestedIncompatibleQosStatusImpl(env, total,
            totalChange, last, policyCounts(env));
        totalChange = 0;
        return status;
    }

    private Set<QosPolicyCount> policyCounts(final ServiceEnvironment env)
    {
        final Set<QosPolicyCount> counts = new HashSet<>();
        perPolicy.forEach((policy, count) -> counts.add(new PolicyCount(env, policy, count)));
        return counts;
    }
}
