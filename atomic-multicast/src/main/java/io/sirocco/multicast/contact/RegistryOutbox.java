package io.sirocco.multicast.contact;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.sirocco.transport.agent.Agents;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the registry messages of a {@link NetRegistry} on one thread, in call order, so that callers (the predicate
 * thread during a view change) never block on a connect. A node a send failed to is skipped by greetings for a while:
 * each attempt holds this single thread for the connect timeout, which delayed every other registry message
 * (proposals too) while a contact was cut off.
 *
 * <p>Threads: {@link #submit} from any thread; sends on the outbox thread ({@code sirocco-registry-out-<group>});
 * the table of unreachable nodes is a concurrent map written by the outbox thread and read by any.
 */
final class RegistryOutbox implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(RegistryOutbox.class);
    private static final long UNREACHABLE_BACKOFF_NS = TimeUnit.SECONDS.toNanos(3);

    private final String groupName;
    private final RegistryEndpoint endpoint;
    private final ExecutorService executor;
    /** Nodes a send just failed to, and until when greetings skip them. */
    private final Map<Integer, Long> unreachableUntilNs = new ConcurrentHashMap<>();

    RegistryOutbox(final String groupName, final RegistryEndpoint endpoint)
    {
        this.groupName = groupName;
        this.endpoint = endpoint;
        this.executor = Executors.newSingleThreadExecutor(Agents.threadFactory("registry-out-" + groupName));
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
        try
        {
            executor.execute(() ->
            {
                final RegistryMessage m = message.get();
                if (m != null)
                {
                    sendNow(m, node);
                }
            });
        }
        catch (final RejectedExecutionException ex)
        {
            LOG.debug("group '{}': registry closed; message to node {} dropped", groupName, node);
        }
    }

    /** On the outbox thread only. */
    private void sendNow(final RegistryMessage m, final int node)
    {
        try
        {
            endpoint.send(m, node);
        }
        catch (final RuntimeException ex)
        {
            // An unreachable contact or a member that just died: the periodic hello and the view change cover it.
            unreachableUntilNs.put(node, System.nanoTime() + UNREACHABLE_BACKOFF_NS);
            LOG.debug("group '{}': registry message {} to node {} ({}) not sent: {}", groupName, m.kind, node,
                endpoint.address(node), ex.toString());
        }
    }

    /** Sends what is queued (waiting up to 2 s) and stops the thread. */
    @Override
    public void close()
    {
        executor.shutdown();
        try
        {
            executor.awaitTermination(2, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
