package io.sirocco.multicast.contact;

import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import io.sirocco.transport.agent.Agents;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the registry messages of a {@link NetRegistry} off the callers' threads (the predicate thread during a view
 * change must never block on a connect), in call order per destination node. Each node has a lane (a queue); a lane
 * whose node is connected is drained by the send thread, which never connects, so a message to a live member does not
 * wait; a lane whose node still needs a connect is drained by one of two connect threads, where a connect can hold a
 * thread for the connect timeout. One used to send everything on a single thread: a connect to each bogus contact
 * (forged beacons, issue 23) held every other registry message, proposals too, for a second each. A node a send failed
 * to is skipped by greetings for a while, and its lane's queued messages are dropped (the periodic hello and the view
 * change cover it).
 *
 * <p>Threads: {@link #submit} from any thread; sends on the send thread ({@code sirocco-registry-out-<group>}) or a
 * connect thread ({@code sirocco-registry-connect-<group>}). A lane is guarded by its own monitor (control plane, not
 * the data path) and drained by one thread at a time (its {@code scheduled} flag); the maps are concurrent.
 */
final class RegistryOutbox implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(RegistryOutbox.class);
    private static final long UNREACHABLE_BACKOFF_NS = TimeUnit.SECONDS.toNanos(3);
    /** A registry message's size for {@code canSendNow}: whether the node's connection is open and has room. */
    private static final int PROBE_BYTES = 256;

    private final String groupName;
    private final RegistryEndpoint endpoint;
    private final ExecutorService sender;
    private final ExecutorService connector;
    /** Nodes a send just failed to, and until when greetings skip them. */
    private final Map<Integer, Long> unreachableUntilNs = new ConcurrentHashMap<>();
    private final Map<Integer, Lane> lanes = new ConcurrentHashMap<>();
    /** Sends that failed (unreachable nodes), for tests and diagnosis. */
    private final AtomicLong failedSends = new AtomicLong();

    /** The messages waiting for one node, in call order. */
    private static final class Lane
    {
        final int node;
        final ArrayDeque<Supplier<RegistryMessage>> queue = new ArrayDeque<>();
        boolean scheduled;

        Lane(final int node)
        {
            this.node = node;
        }
    }

    RegistryOutbox(final String groupName, final RegistryEndpoint endpoint)
    {
        this.groupName = groupName;
        this.endpoint = endpoint;
        this.sender = Executors.newSingleThreadExecutor(Agents.threadFactory("registry-out-" + groupName));
        this.connector = Executors.newFixedThreadPool(2, Agents.threadFactory("registry-connect-" + groupName));
    }

    /** @return whether a send to {@code node} failed less than the back-off ago. */
    boolean unreachable(final int node, final long nowNs)
    {
        final Long until = unreachableUntilNs.get(node);
        return until != null && until - nowNs > 0;
    }

    void submit(final RegistryMessage m, final int node)
    {
        submit(() -> m, node);
    }

    /** Queues a message built when it is sent ({@code message} may return null: nothing to send by then). */
    void submit(final Supplier<RegistryMessage> message, final int node)
    {
        final Lane lane = lanes.computeIfAbsent(node, Lane::new);
        final boolean start;
        synchronized (lane)
        {
            lane.queue.add(message);
            start = !lane.scheduled;
            lane.scheduled = true;
        }
        if (start)
        {
            schedule(lane);
        }
    }

    private void schedule(final Lane lane)
    {
        final ExecutorService executor = endpoint.canSendNow(lane.node, PROBE_BYTES) ? sender : connector;
        try
        {
            executor.execute(() -> drain(lane));
        }
        catch (final RejectedExecutionException ex)
        {
            LOG.debug("group '{}': registry closed; messages to node {} dropped", groupName, lane.node);
        }
    }

    /** On the send thread or a connect thread: sends the lane's messages until it is empty or its node fails. */
    private void drain(final Lane lane)
    {
        while (true)
        {
            final Supplier<RegistryMessage> next;
            synchronized (lane)
            {
                next = lane.queue.poll();
                if (next == null)
                {
                    lane.scheduled = false;
                    return;
                }
            }
            final RegistryMessage m = next.get();
            if (m != null && !sendNow(m, lane.node))
            {
                dropQueued(lane);
            }
        }
    }

    private void dropQueued(final Lane lane)
    {
        final int dropped;
        synchronized (lane)
        {
            dropped = lane.queue.size();
            lane.queue.clear();
        }
        if (dropped > 0)
        {
            LOG.debug("group '{}': {} queued registry message(s) to unreachable node {} dropped", groupName, dropped,
                lane.node);
        }
    }

    /** On the send thread or a connect thread; whether the message went. */
    private boolean sendNow(final RegistryMessage m, final int node)
    {
        try
        {
            endpoint.send(m, node);
            return true;
        }
        catch (final RuntimeException ex)
        {
            // An unreachable contact or a member that just died: the periodic hello and the view change cover it.
            unreachableUntilNs.put(node, System.nanoTime() + UNREACHABLE_BACKOFF_NS);
            failedSends.incrementAndGet();
            LOG.debug("group '{}': registry message {} to node {} ({}) not sent: {}", groupName, m.kind, node,
                endpoint.address(node), ex.toString());
            return false;
        }
    }

    /** @return how many sends failed so far (the node could not be reached). */
    long failedSends()
    {
        return failedSends.get();
    }

    /** Sends what is queued (waiting up to 2 s) and stops the threads. */
    @Override
    public void close()
    {
        sender.shutdown();
        connector.shutdown();
        try
        {
            if (sender.awaitTermination(2, TimeUnit.SECONDS))
            {
                connector.awaitTermination(2, TimeUnit.SECONDS);
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
