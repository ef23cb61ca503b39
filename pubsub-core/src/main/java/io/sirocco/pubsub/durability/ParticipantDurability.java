package io.sirocco.pubsub.durability;

import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import io.sirocco.multicast.Group;
import io.sirocco.pubsub.bus.DiscoveryHandler;
import io.sirocco.pubsub.bus.DomainBus;
import io.sirocco.pubsub.bus.EndpointRecord;

/**
 * A participant's durability node, started on first use (its first TRANSIENT writer) or at once when the participant
 * holds backups ({@link DurabilityConfig#backup}). The participant's control path only: {@link #node} may be called
 * from any application thread; the start is guarded by a lock, the started node published through a volatile field.
 */
public final class ParticipantDurability implements AutoCloseable, DiscoveryHandler
{
    private final int domainId;
    private final Supplier<String> describe;
    private final Group group;
    private final String transportName;
    private final DurabilityConfig config = DurabilityConfig.fromSettings();
    private final ReentrantLock lock = new ReentrantLock();
    private volatile DurabilityNode node;
    /** A backup participant's server of the histories it recovers; null when it holds no backups. */
    private final RecoveredWriters serving;

    /**
     * @param group the participant's domain group, or null on a bus without one (the in-process bus).
     * @param bus       the participant's bus, on which a backup serves the histories it recovers.
     * @param discovery registers this participant's durability with its discovery (records it must hear of).
     */
    public ParticipantDurability(final int domainId, final Supplier<String> describe, final Group group,
        final DomainBus bus, final java.util.function.Consumer<DiscoveryHandler> discovery)
    {
        this.domainId = domainId;
        this.describe = describe;
        this.group = group;
        this.transportName = bus.transportName();
        if (config.backup() && group != null)
        {
            this.serving = new RecoveredWriters(domainId, bus, node().recovered(),
                node().persistentDirectory(), config.replayBatchKib() << 10);
            node().recovered().whenRecovered(serving::onRecovered);
        }
        else
        {
            this.serving = null;
        }
        discovery.accept(this);
    }

    /** Discovery thread: a backup participant learns the durable writers and the readers it may serve. */
    @Override
    public void onAnnounce(final EndpointRecord record)
    {
        if (serving != null)
        {
            serving.onAnnounce(record);
        }
    }

    @Override
    public void onRetract(final long guid, final boolean participantFailed)
    {
        if (serving != null)
        {
            serving.onRetract(guid, participantFailed);
        }
    }

    /** The node, started now if it is not yet; UnsupportedOperationException on a bus without a group. */
    public DurabilityNode node()
    {
        DurabilityNode started = node;
        if (started != null)
        {
            return started;
        }
        if (group == null)
        {
            throw new UnsupportedOperationException(describe.get() + ": Durability TRANSIENT and PERSISTENT need the shm, tcp or " +
                "mixed transport (log replication between participants); the " + transportName + " bus has none");
        }
        lock.lock();
        try
        {
            started = node;
            if (started == null)
            {
                started = new DurabilityNode(domainId, group, config);
                node = started;
            }
            return started;
        }
        finally
        {
            lock.unlock();
        }
    }

    @Override
    public void close()
    {
        if (serving != null)
        {
            serving.close();
        }
        final DurabilityNode started = node;
        if (started != null)
        {
            started.close();
        }
    }
}
