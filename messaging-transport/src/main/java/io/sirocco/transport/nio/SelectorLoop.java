package io.sirocco.transport.nio;

import java.io.IOException;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import io.sirocco.transport.TransportContext;
import io.sirocco.transport.TransportStatistics;
import io.sirocco.transport.agent.Agents;
import io.sirocco.transport.spi.Connection;
import io.sirocco.transport.spi.TransportEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The selector loop: one pass runs the queued commands, writes the connections in the {@link InterestQueue}, and
 * handles the ready keys (reads, writes, accepts, hellos). Whoever holds {@code leading} runs it: normally the
 * selector thread, or a requester waiting for a response (leader/follower, {@link #awaitResponse}).
 *
 * <p><b>Idle.</b> The selector thread keeps polling with {@code selectNow} while its {@link SelectorSpinWindow} says
 * so (request/response traffic, an uncontended core; {@code selectorSpinNs}) and for {@code selectorSpins} empty
 * polls, then yields {@code selectorYields} times, then blocks in {@code select}. Its blocking call is the wait
 * itself, so it is a plain loop on a thread from {@link Agents#threadFactory} ({@code sirocco-node<id>-selector}).
 *
 * <p>Concurrency: the loop's state (keys, channels, the spin window) needs no lock: leadership passes through
 * {@code leading} (a CAS to take it, a volatile store to give it back), which orders everything the previous leader
 * did before everything the next one does. Commands come from any thread through a concurrent queue and wake the
 * selector.
 */
final class SelectorLoop
{
    private static final Logger LOG = LoggerFactory.getLogger(SelectorLoop.class);
    /** How long a requester waits for the selector thread to hand the loop over before it waits as usual. */
    private static final long HANDOVER_WAIT_NS = 200_000L;
    /** How long the selector thread stays off the blocking select after a requester led the loop. */
    private static final long FOLLOW_PARK_NS = 200_000L;

    private final TransportContext context;
    private final TransportEnvironment environment;
    private final Selector selector;
    private final InterestQueue interests;
    private final ChannelWriter writer;
    private final ChannelReader reader;
    private final HandshakeAcceptor acceptor;
    private final ConcurrentLinkedQueue<Runnable> commands = new ConcurrentLinkedQueue<>();
    private final Consumer<SelectionKey> keyHandler = this::onKey;
    /** {@link TransportContext#selectorBlockMs()}: 0 blocks until ready or woken. */
    private final long selectBlockMs;
    private final boolean handover;
    private final AtomicBoolean leading = new AtomicBoolean();
    private volatile Thread leader;
    private volatile boolean handoverWanted;
    private volatile long requesterLedNs = System.nanoTime() - (1L << 40);
    private Thread thread;
    /** Empty polls since the last work (selector thread only; kept across its leads, as before). */
    private long idlePolls;
    private volatile boolean running;

    SelectorLoop(final TransportContext context, final TransportEnvironment environment, final Selector selector,
        final InterestQueue interests, final ChannelWriter writer, final ChannelReader reader,
        final HandshakeAcceptor acceptor)
    {
        this.context = context;
        this.environment = environment;
        this.selector = selector;
        this.interests = interests;
        this.writer = writer;
        this.reader = reader;
        this.acceptor = acceptor;
        this.selectBlockMs = context.selectorBlockMs();
        this.handover = context.selectorHandover() && context.inlineCoordinator();
    }

    void start()
    {
        running = true;
        thread = Agents.threadFactory("node" + environment.ownNodeId() + "-selector").newThread(this::run);
        thread.start();
    }

    /** Stops the loop and waits up to 5 s for the selector thread. */
    void stop()
    {
        running = false;
        selector.wakeup();
        if (thread != null)
        {
            try
            {
                thread.join(5_000);
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    boolean running()
    {
        return running;
    }

    /** True on the thread that leads the loop now (a handler or the inline coordinator runs there). */
    boolean isLeader()
    {
        return Thread.currentThread() == leader;
    }

    void command(final Runnable command)
    {
        commands.add(command);
        selector.wakeup();
    }

    /** Has the loop register a channel bound by a connector (any thread). */
    void registerLater(final NioChannel bound)
    {
        command(() -> register(bound));
    }

    private void register(final NioChannel channel)
    {
        try
        {
            channel.key = channel.channel.register(selector, SelectionKey.OP_READ, channel);
            writer.writeOut(channel.connection);
        }
        catch (final IOException e)
        {
            writer.fail(channel.connection, "register channel to " + channel.peer + ": " + e.getMessage());
        }
    }

    /**
     * The selector thread. While requesters lead the loop now and then (see {@link #awaitResponse}) it stays off the
     * blocking select and only polls the loop without blocking every {@link #FOLLOW_PARK_NS}, so messages that are
     * not responses are still served and a requester's next request finds the loop free (no hand-over per round
     * trip). Once no requester has led for that long, it leads the blocking loop again until a requester asks for it.
     */
    private void run()
    {
        final long spins = context.selectorSpins();
        final long yieldsEnd = spins + context.selectorYields();
        final SelectorSpinWindow spinWindow = new SelectorSpinWindow(context.selectorSpinNs(), System.nanoTime());
        final TransportStatistics statistics = environment.statistics();
        while (running)
        {
            if (handoverWanted || System.nanoTime() - requesterLedNs < FOLLOW_PARK_NS)
            {
                follow();
                continue;
            }
            if (!leading.compareAndSet(false, true))
            {
                LockSupport.parkNanos(this, FOLLOW_PARK_NS);
                continue;
            }
            leader = thread;
            try
            {
                lead(spins, yieldsEnd, spinWindow, statistics);
            }
            finally
            {
                leader = null;
                leading.set(false);
            }
        }
    }

    /** A requester leads now or lately: park a while, then poll the loop once without blocking if it is free. */
    private void follow()
    {
        LockSupport.parkNanos(this, FOLLOW_PARK_NS);
        if (!handoverWanted && leading.compareAndSet(false, true))
        {
            leader = thread;
            try
            {
                pollOnce(false, 0);
            }
            finally
            {
                leader = null;
                leading.set(false);
            }
        }
    }

    /** Leading: spin (window or count), yield, or block in select, until stopped or a requester wants the loop. */
    private void lead(final long spins, final long yieldsEnd, final SelectorSpinWindow spinWindow,
        final TransportStatistics statistics)
    {
        while (running && !handoverWanted)
        {
            final int work;
            final long pollStartNs = System.nanoTime();
            if (idlePolls < spins || spinWindow.shouldSpin(pollStartNs))
            {
                statistics.selectorSpinPoll();
                work = pollOnce(false, 0);
                if (work == 0)
                {
                    spinWindow.onEmptyPoll(System.nanoTime() - pollStartNs);
                    Thread.onSpinWait();
                }
            }
            else if (idlePolls < yieldsEnd)
            {
                Thread.yield();
                work = pollOnce(false, 0);
            }
            else
            {
                statistics.selectorBlockingSelect();
                work = pollOnce(true, selectBlockMs);
            }
            if (work > 0)
            {
                idlePolls = 0;
                spinWindow.onWork(System.nanoTime());
            }
            else
            {
                idlePolls++;
            }
        }
    }

    /** The leader only: one pass of commands, interests and ready keys; blocks in select up to the timeout (ms, 0: until ready or woken) if asked. */
    private int pollOnce(final boolean block, final long timeoutMs)
    {
        try
        {
            final boolean timers = acceptor.hasTimers();
            final long nowNs = timers ? System.nanoTime() : 0;
            final int work = runCommands() + processInterests() + (timers ? acceptor.onTimers(nowNs) : 0);
            if (!block || work > 0)
            {
                return work + selector.selectNow(keyHandler);
            }
            interests.selecting(true);
            final int selected;
            if (interests.isEmpty() && commands.isEmpty() && !handoverWanted)
            {
                selected = selector.select(keyHandler, timers ? boundByTimers(timeoutMs, nowNs) : timeoutMs);
            }
            else
            {
                selected = selector.selectNow(keyHandler);
            }
            interests.selecting(false);
            return selected;
        }
        catch (final IOException | RuntimeException e)
        {
            interests.selecting(false);
            if (running)
            {
                LOG.error("node {}: selector loop error", environment.ownNodeId(), e);
            }
            return 0;
        }
    }

    /** A select timeout (ms, 0: none) that wakes the loop in time for the acceptor's next deadline. */
    private long boundByTimers(final long timeoutMs, final long nowNs)
    {
        final long timerMs = acceptor.millisToNextTimer(nowNs);
        return timerMs == 0 ? timeoutMs : timeoutMs == 0 ? timerMs : Math.min(timeoutMs, timerMs);
    }

    /**
     * Leader/follower: a thread waiting for a response takes the selector loop over, so that the socket wakes it
     * directly instead of the selector thread waking it (one thread hand-off less per round trip). Only with the
     * inline coordinator, which completes the response on the reading thread. If another requester already leads,
     * or the selector thread does not hand over within a short bound, the caller waits on the future as usual.
     */
    boolean awaitResponse(final CompletableFuture<?> response, final long deadlineNs)
    {
        // never spin instead: a spinning requester competes with the thread that must read its response
        if (!handover || !running || Thread.currentThread() == leader || response.isDone())
        {
            return true;
        }
        final Thread current = leader;
        if (current != null && current != thread)
        {
            return true; // another requester leads: it completes our response too
        }
        final long giveUpNs = System.nanoTime() + HANDOVER_WAIT_NS;
        boolean asked = false;
        try
        {
            while (!response.isDone())
            {
                if (leading.compareAndSet(false, true))
                {
                    if (asked)
                    {
                        handoverWanted = false;
                    }
                    leadFor(response, deadlineNs);
                    return true;
                }
                if (!asked)
                {
                    asked = true;
                    handoverWanted = true; // the selector thread leaves its blocking select and stays off
                    selector.wakeup();
                }
                if (System.nanoTime() - giveUpNs > 0)
                {
                    return true;
                }
                Thread.yield();
            }
            return true;
        }
        finally
        {
            if (asked)
            {
                handoverWanted = false;
            }
        }
    }

    /** {@code leading} taken by a requester: runs the loop until its response is done or the deadline passes. */
    private void leadFor(final CompletableFuture<?> response, final long deadlineNs)
    {
        leader = Thread.currentThread();
        try
        {
            while (!response.isDone() && running && System.nanoTime() - deadlineNs < 0)
            {
                pollOnce(true, 1);
            }
        }
        finally
        {
            requesterLedNs = System.nanoTime();
            leader = null;
            leading.set(false);
        }
    }

    private int runCommands()
    {
        int count = 0;
        Runnable command;
        while ((command = commands.poll()) != null)
        {
            command.run();
            count++;
        }
        return count;
    }

    private int processInterests()
    {
        int count = 0;
        Connection connection;
        while ((connection = interests.poll()) != null)
        {
            connection.takeInterest();
            count++;
            if (!connection.isClosed())
            {
                writer.writeOut(connection);
            }
        }
        return count;
    }

    private void onKey(final SelectionKey key)
    {
        if (!key.isValid())
        {
            return;
        }
        final Object attachment = key.attachment();
        try
        {
            if (attachment instanceof NioChannel channel)
            {
                if (key.isReadable())
                {
                    reader.readIn(channel);
                }
                if (key.isValid() && key.isWritable())
                {
                    writer.writeOut(channel.connection);
                }
            }
            else if (attachment instanceof PendingAccept pending)
            {
                if (key.isReadable())
                {
                    acceptor.readHello(pending);
                }
            }
            else if (key.isAcceptable())
            {
                acceptor.accept();
            }
        }
        catch (final CancelledKeyException e)
        {
            // closed concurrently by another thread
        }
    }
}
