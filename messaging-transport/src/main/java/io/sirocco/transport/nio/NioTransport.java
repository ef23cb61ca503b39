package io.sirocco.transport.nio;

import io.sirocco.transport.NodeIds;
import io.sirocco.transport.NodeUnreachableException;
import io.sirocco.transport.TransportContext;
import io.sirocco.transport.TransportStatistics;
import io.sirocco.transport.concurrent.MpmcArrayQueue;
import io.sirocco.transport.incoming.IncomingBuffer;
import io.sirocco.transport.orb.OutgoingRingBuffer;
import io.sirocco.transport.protocol.HandshakeDescriptor;
import io.sirocco.transport.spi.Connection;
import io.sirocco.transport.spi.Transport;
import io.sirocco.transport.spi.TransportEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.security.SecureRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;

/**
 * The TCP transport over Java NIO: one selector thread, <b>one bidirectional socket per node pair</b>, writes
 * straight from the ring, flow-control credits piggy-backed as credit frames in front of outgoing data, and an
 * interest queue.
 *
 * <p><b>One socket per node pair.</b> Requests and their responses share a socket, so a response's segment
 * acknowledges the request at the TCP level (two one-way sockets cost a pure ACK per message inside every read).
 * A socket starts with a handshake ({@link HandshakeDescriptor}): the connector sends a hello and waits for the
 * acceptor's reply before it writes any frame. Crossed simultaneous connects are settled by {@link PeerLink}'s rule
 * (the socket opened by the lower node id wins; a stale hello is rejected); a rejected socket never carried data,
 * so nothing is lost or duplicated, and the losing connector waits until the winning socket is bound to the same
 * connection object; if it does not come within the connect timeout (the winner is slow, or gave up), the loser
 * handshakes again, up to {@link #CONNECT_ATTEMPTS} times, instead of reporting a live peer unreachable.
 *
 * <p><b>Credits.</b> The receiving coordinator makes credits pending past the threshold; the next writer on the
 * connection (whoever holds the ring's consumer lock) takes them and puts a 12-byte credit frame in front of the
 * ring data in the same gathering write. A standalone credit frame is written only when no data is going out.
 *
 * <p><b>Interest queue.</b> Producer threads never touch selection keys. {@link #signal} sets bits in the
 * connection's interest word; only the thread that turns the word from zero enqueues the connection (so a busy
 * connection costs one atomic read per message), and the selector is woken only if it is blocked in
 * {@code select} ({@code selecting} is a volatile Dekker pair with the queue). The selector applies the bits
 * before each select.
 *
 * <p><b>Direct writes.</b> With {@code directWrite} (default) the signalling thread writes the ring to the socket
 * itself when it gets the ring's consumer lock; it hands over to the selector (OP_WRITE) only when the socket is
 * full. This saves a thread hand-off per round trip. A connection written directly less than
 * {@code directWriteGapNs} ago is left to the selector loop instead, which batches a fast sender's messages into
 * one write.
 *
 * <p><b>Idle.</b> The selector keeps polling with {@code selectNow} while its {@link SelectorSpinWindow} says so
 * (request/response traffic, an uncontended core; {@code selectorSpinNs}) and for {@code selectorSpins} empty
 * polls, then yields {@code selectorYields} times, then blocks in {@code select}.
 */
public final class NioTransport implements Transport
{
    private static final Logger LOG = LoggerFactory.getLogger(NioTransport.class);
    private static final int MAX_CREDITS_PER_FRAME = 1 << 20;
    /** How long a requester waits for the selector thread to hand the loop over before it waits as usual. */
    private static final long HANDOVER_WAIT_NS = 200_000L;
    /** How long the selector thread stays off the blocking select after a requester led the loop. */
    private static final long FOLLOW_PARK_NS = 200_000L;

    private final TransportContext context;
    private final MpmcArrayQueue<Connection> interests = new MpmcArrayQueue<>(1 << 16);
    private final ConcurrentLinkedQueue<Runnable> commands = new ConcurrentLinkedQueue<>();
    private final Consumer<SelectionKey> keyHandler = this::onKey;
    private final AtomicReferenceArray<PeerLink> links = new AtomicReferenceArray<>(NodeIds.COUNT);
    private final long incarnation = new SecureRandom().nextLong();
    private final ByteBuffer replyBuffer = ByteBuffer.allocate(HandshakeDescriptor.LENGTH).order(ByteOrder.LITTLE_ENDIAN);
    private final boolean directWrite;
    private final long directWriteGapNs;
    /** {@link TransportContext#selectorBlockMs()}: 0 blocks until ready or woken. */
    private final long selectBlockMs;
    private TransportEnvironment environment;
    private Selector selector;
    private ServerSocketChannel server;
    private final boolean handover;
    private final AtomicBoolean leading = new AtomicBoolean();
    private volatile Thread leader;
    private volatile boolean handoverWanted;
    private volatile long requesterLedNs = System.nanoTime() - (1L << 40);
    private Thread thread;
    private volatile boolean selecting;
    private volatile boolean running;

    NioTransport(final TransportContext context)
    {
        this.context = context;
        this.directWrite = context.directWrite();
        this.directWriteGapNs = context.directWriteGapNs();
        this.selectBlockMs = context.selectorBlockMs();
        this.handover = context.selectorHandover() && context.inlineCoordinator();
    }

    @Override
    public String name()
    {
        return "nio";
    }

    @Override
    public void start(final TransportEnvironment environment)
    {
        this.environment = environment;
        final int own = environment.ownNodeId();
        final InetSocketAddress address = context.addressMap().address(own);
        if (address == null)
        {
            throw new IllegalStateException("node " + own + " has no address in the node address map: cannot listen");
        }
        try
        {
            selector = Selector.open();
            server = ServerSocketChannel.open();
            server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            server.setOption(StandardSocketOptions.SO_RCVBUF, context.socketBufferBytes());
            server.bind(address, 1024);
            server.configureBlocking(false);
            server.register(selector, SelectionKey.OP_ACCEPT, server);
            final InetSocketAddress bound = (InetSocketAddress)server.getLocalAddress();
            if (address.getPort() == 0)
            {
                context.addressMap().put(own, new InetSocketAddress(address.getAddress(), bound.getPort()));
            }
        }
        catch (final IOException e)
        {
            closeQuietly();
            throw new IllegalStateException("node " + own + " cannot listen on " + address + ": " + e.getMessage(), e);
        }
        running = true;
        thread = new Thread(this::run, "sirocco-node" + own + "-selector");
        thread.setDaemon(true);
        thread.start();
    }

    /** The address the node listens on (the bound port if the map said 0). */
    public InetSocketAddress listenAddress()
    {
        try
        {
            return (InetSocketAddress)server.getLocalAddress();
        }
        catch (final IOException e)
        {
            throw new IllegalStateException(e);
        }
    }

    private PeerLink link(final int nodeId)
    {
        final PeerLink existing = links.get(nodeId);
        if (existing != null)
        {
            return existing;
        }
        final PeerLink created = new PeerLink();
        return links.compareAndSet(nodeId, null, created) ? created : links.get(nodeId);
    }

    // ------------------------------------------------------------------ paper operation 4: set up

    /**
     * How many handshakes a connector that keeps losing crossed connects makes before it reports the peer unreachable;
     * each one is bounded by the connect timeout, so {@link #connect} takes at most this many timeouts.
     */
    static final int CONNECT_ATTEMPTS = 3;

    @Override
    public long connectBoundNs(final long timeoutNs)
    {
        return timeoutNs > Long.MAX_VALUE / CONNECT_ATTEMPTS ? Long.MAX_VALUE : timeoutNs * CONNECT_ATTEMPTS;
    }

    /**
     * Connects, retrying a lost crossed connect. A REJECT means the peer is alive and connecting to this node itself
     * (or already is, with a socket this node has bound by then), so this node waits for that socket. The winner's own
     * attempt can take long under load (it may be descheduled between taking its link and sending its hello, or give
     * up on a slow reply), so when the wait reaches this attempt's deadline the connector tries a new handshake
     * instead of failing: a peer still connecting rejects it again (the wait goes on), a peer whose attempt failed
     * accepts it. At most {@link #CONNECT_ATTEMPTS} handshakes, each bounded by {@code timeoutNs}.
     */
    @Override
    public void connect(final Connection connection, final long timeoutNs)
    {
        final int node = connection.nodeId();
        final InetSocketAddress address = context.addressMap().address(node);
        if (address == null)
        {
            throw new NodeUnreachableException(node, "no address for node " + node + " in the node address map");
        }
        final PeerLink link = link(node);
        for (int attempt = 1; ; attempt++)
        {
            final long deadlineNs = System.nanoTime() + timeoutNs;
            final long generation;
            synchronized (link)
            {
                if (link.boundTo(connection))
                {
                    return; // the peer connected first and its socket is bound to this connection
                }
                link.connecting = true;
                generation = link.generation;
            }
            if (handshake(link, connection, address, generation, timeoutNs, deadlineNs) ||
                awaitAcceptedSocket(link, connection, address, deadlineNs))
            {
                return;
            }
            if (attempt == CONNECT_ATTEMPTS)
            {
                throw new NodeUnreachableException(node, "node " + node + " (" + address + ") rejected this node's " +
                    "socket " + attempt + " times as the loser of a crossed connect, and its own socket was not " +
                    "bound within the connect timeout after any of them");
            }
            LOG.debug("node {}: lost a crossed connect to node {} and its socket did not come within the connect " +
                "timeout; handshake {} of {}", environment.ownNodeId(), node, attempt + 1, CONNECT_ATTEMPTS);
        }
    }

    /**
     * One handshake with the peer: true when the connection has its socket (the peer accepted this node's socket, now
     * bound, or the peer's own socket was bound while this one failed), false when the peer rejected this socket (a
     * crossed connect this node lost; the socket is closed). Throws when the peer cannot be reached.
     */
    private boolean handshake(final PeerLink link, final Connection connection, final InetSocketAddress address,
        final long generation, final long timeoutNs, final long deadlineNs)
    {
        SocketChannel channel = null;
        try
        {
            channel = SocketChannel.open();
            configure(channel);
            final int timeoutMs = (int)Math.max(1, Math.min(Integer.MAX_VALUE, timeoutNs / 1_000_000));
            channel.socket().connect(address, timeoutMs);
            final ByteBuffer hello = HandshakeDescriptor.hello(
                ByteBuffer.allocate(HandshakeDescriptor.LENGTH).order(ByteOrder.LITTLE_ENDIAN),
                environment.ownNodeId(), listenAddress().getPort(), incarnation, generation);
            while (hello.hasRemaining())
            {
                channel.write(hello);
            }
            final ByteBuffer reply = readReply(channel, address, deadlineNs);
            if (HandshakeDescriptor.verdict(reply) == HandshakeDescriptor.ACCEPT)
            {
                channel.configureBlocking(false);
                synchronized (link)
                {
                    link.connecting = false;
                    if (link.boundTo(connection))
                    {
                        closeChannel(channel); // cannot happen under the rule; the bound socket is kept
                        return true;
                    }
                    final NioChannel bound = bind(link, channel, connection, address.toString(),
                        HandshakeDescriptor.incarnation(reply), HandshakeDescriptor.generation(reply));
                    command(() -> register(bound));
                }
                return true;
            }
            closeChannel(channel);
            return false;
        }
        catch (final IOException e)
        {
            if (channel != null)
            {
                closeChannel(channel);
            }
            synchronized (link)
            {
                link.connecting = false;
                if (link.boundTo(connection))
                {
                    return true; // the peer's own socket was bound meanwhile (it won a crossed connect)
                }
            }
            throw new NodeUnreachableException(connection.nodeId(), "connect to " + address + " failed: " +
                e.getMessage(), e);
        }
    }

    private void configure(final SocketChannel channel) throws IOException
    {
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        channel.setOption(StandardSocketOptions.SO_SNDBUF, context.socketBufferBytes());
        channel.setOption(StandardSocketOptions.SO_RCVBUF, context.socketBufferBytes());
    }

    /** Blocking read of the acceptor's reply (exactly its bytes: frames may follow it), bounded by the deadline. */
    private static ByteBuffer readReply(final SocketChannel channel, final InetSocketAddress address, final long deadlineNs)
        throws IOException
    {
        final byte[] bytes = new byte[HandshakeDescriptor.LENGTH];
        final java.io.InputStream in = channel.socket().getInputStream();
        int filled = 0;
        while (filled < bytes.length)
        {
            final long leftMs = (deadlineNs - System.nanoTime()) / 1_000_000;
            if (leftMs <= 0)
            {
                throw new IOException("no handshake reply from " + address + " within the connect timeout");
            }
            channel.socket().setSoTimeout((int)Math.min(Integer.MAX_VALUE, leftMs));
            final int n;
            try
            {
                n = in.read(bytes, filled, bytes.length - filled);
            }
            catch (final java.net.SocketTimeoutException e)
            {
                throw new IOException("no handshake reply from " + address + " within the connect timeout", e);
            }
            if (n < 0)
            {
                throw new IOException(address + " closed the socket during the handshake after " + filled + " bytes");
            }
            filled += n;
        }
        final ByteBuffer reply = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        final int verdict = HandshakeDescriptor.verdict(reply);
        if (HandshakeDescriptor.magic(reply) != HandshakeDescriptor.REPLY_MAGIC ||
            (verdict != HandshakeDescriptor.ACCEPT && verdict != HandshakeDescriptor.REJECT))
        {
            throw new IOException("bad handshake reply from " + address);
        }
        return reply;
    }

    /**
     * The peer rejected this node's socket (a crossed connect): waits until the peer's socket is bound to the
     * connection (true) or the deadline passes (false). Throws if the connection is closed meanwhile.
     */
    private boolean awaitAcceptedSocket(final PeerLink link, final Connection connection,
        final InetSocketAddress address, final long deadlineNs)
    {
        synchronized (link)
        {
            link.connecting = false;
            while (!link.boundTo(connection))
            {
                if (connection.isClosed())
                {
                    throw new NodeUnreachableException(connection.nodeId(), "the connection to node " +
                        connection.nodeId() + " (" + address + ") was closed while this node waited for that " +
                        "node's socket after losing a crossed connect");
                }
                final long leftMs = (deadlineNs - System.nanoTime()) / 1_000_000;
                if (leftMs <= 0)
                {
                    return false;
                }
                try
                {
                    link.wait(leftMs);
                }
                catch (final InterruptedException e)
                {
                    Thread.currentThread().interrupt();
                    throw new NodeUnreachableException(connection.nodeId(), "interrupted while connecting", e);
                }
            }
            return true;
        }
    }

    /** Holding the link's monitor: binds a handshaken socket to the connection. */
    private NioChannel bind(final PeerLink link, final SocketChannel channel, final Connection connection,
        final String peer, final long peerIncarnation, final long generation)
    {
        final NioChannel bound = new NioChannel(channel, connection, peer);
        link.bound = bound;
        link.peerIncarnation = peerIncarnation;
        link.generation = generation;
        connection.peerDescription(peer);
        connection.incomingAttachment(bound);
        connection.outgoingAttachment(bound);
        connection.incomingOpen(true);
        link.notifyAll();
        return bound;
    }

    private void register(final NioChannel channel)
    {
        try
        {
            channel.key = channel.channel.register(selector, SelectionKey.OP_READ, channel);
            writeOut(channel.connection);
        }
        catch (final IOException e)
        {
            fail(channel.connection, "register channel to " + channel.peer + ": " + e.getMessage());
        }
    }

    // ------------------------------------------------------------------ paper operation 1: signal

    @Override
    public void signal(final Connection connection, final int what)
    {
        if (Thread.currentThread() == leader)
        {
            writeOut(connection); // a handler or the inline coordinator runs on the selector loop's thread
        }
        else if (directWrite)
        {
            writeDirect(connection);
        }
        else
        {
            queue(connection, what);
        }
    }

    private void queue(final Connection connection, final int bits)
    {
        if (connection.addInterest(bits))
        {
            while (!interests.offer(connection))
            {
                Thread.onSpinWait();
            }
            if (selecting)
            {
                selector.wakeup();
            }
        }
    }

    private void command(final Runnable command)
    {
        commands.add(command);
        selector.wakeup();
    }

    // ------------------------------------------------------------------ paper operation 2: pull from the ORB and send

    private static boolean hasOutput(final Connection connection)
    {
        return connection.outgoingRingBuffer().readableBytes() > 0 || connection.flowControl().creditsPending();
    }

    private void writeDirect(final Connection connection)
    {
        if (!(connection.outgoingAttachment() instanceof NioChannel channel) || channel.key == null)
        {
            // not yet registered: the selector writes after registering
            queue(connection, DATA);
            return;
        }
        final long nowNs = System.nanoTime();
        if (nowNs - channel.lastDirectWriteNs < directWriteGapNs)
        {
            // a fast sender: leave the writing to the selector loop, which sends all that is committed meanwhile in
            // one write instead of one system call per message
            queue(connection, DATA);
            return;
        }
        final OutgoingRingBuffer ring = connection.outgoingRingBuffer();
        do
        {
            if (!ring.tryLockConsumer())
            {
                return; // the lock holder re-checks after unlocking
            }
            final boolean complete;
            try
            {
                channel.lastDirectWriteNs = nowNs;
                complete = writeRing(channel, ring);
            }
            finally
            {
                ring.unlockConsumer();
            }
            if (!complete)
            {
                queue(connection, DATA); // socket full: the selector waits for OP_WRITE
                return;
            }
        }
        while (hasOutput(connection));
    }

    /** Selector thread: write what the ring holds; keep OP_WRITE while the socket is full. */
    private void writeOut(final Connection connection)
    {
        if (!(connection.outgoingAttachment() instanceof NioChannel channel) || channel.key == null)
        {
            return;
        }
        final OutgoingRingBuffer ring = connection.outgoingRingBuffer();
        boolean complete = true;
        do
        {
            if (!ring.tryLockConsumer())
            {
                break; // an application thread is writing; it hands back if the socket fills
            }
            try
            {
                complete = writeRing(channel, ring);
            }
            finally
            {
                ring.unlockConsumer();
            }
        }
        while (complete && hasOutput(connection));
        if (channel.key.isValid())
        {
            channel.key.interestOps(complete ? SelectionKey.OP_READ : SelectionKey.OP_READ | SelectionKey.OP_WRITE);
        }
    }

    /**
     * Consumer lock held: gathering writes of a pending credit frame and the readable ring pieces; false if the
     * socket is full.
     */
    private boolean writeRing(final NioChannel channel, final OutgoingRingBuffer ring)
    {
        final ByteBuffer control = channel.control;
        final ByteBuffer[] gather = channel.gather;
        try
        {
            while (true)
            {
                if (!control.hasRemaining())
                {
                    final int credits = channel.connection.flowControl().takeCredits(MAX_CREDITS_PER_FRAME);
                    if (credits > 0)
                    {
                        channel.putCredits(credits);
                    }
                }
                int count = 0;
                final int controlBytes = control.remaining();
                if (controlBytes > 0)
                {
                    gather[count++] = control;
                }
                final int pieces = ring.prepareRead(Integer.MAX_VALUE);
                final ByteBuffer[] ringPieces = ring.pieces();
                for (int i = 0; i < pieces; i++)
                {
                    gather[count++] = ringPieces[i];
                }
                if (count == 0)
                {
                    return true;
                }
                if (channel.failed)
                {
                    ring.consumed(ring.readableBytes());
                    control.limit(0);
                    return true;
                }
                // one buffer (the usual small message): a plain write, cheaper than a gathering write
                final long written = count == 1 ? channel.channel.write(gather[0]) : channel.channel.write(gather, 0, count);
                if (written <= 0)
                {
                    return false;
                }
                final int ringBytes = (int)written - (controlBytes - control.remaining());
                if (ringBytes > 0)
                {
                    ring.consumed(ringBytes);
                }
            }
        }
        catch (final IOException e)
        {
            channel.failed = true;
            ring.consumed(ring.readableBytes());
            control.limit(0);
            fail(channel.connection, "write to " + channel.peer + " failed: " + e.getMessage());
            return true;
        }
    }

    // ------------------------------------------------------------------ selector thread

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
        long idle = 0;
        while (running)
        {
            if (handoverWanted || System.nanoTime() - requesterLedNs < FOLLOW_PARK_NS)
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
                while (running && !handoverWanted)
                {
                    final int work;
                    final long pollStartNs = System.nanoTime();
                    if (idle < spins || spinWindow.shouldSpin(pollStartNs))
                    {
                        statistics.selectorSpinPoll();
                        work = pollOnce(false, 0);
                        if (work == 0)
                        {
                            spinWindow.onEmptyPoll(System.nanoTime() - pollStartNs);
                            Thread.onSpinWait();
                        }
                    }
                    else if (idle < yieldsEnd)
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
                        idle = 0;
                        spinWindow.onWork(System.nanoTime());
                    }
                    else
                    {
                        idle++;
                    }
                }
            }
            finally
            {
                leader = null;
                leading.set(false);
            }
        }
    }

    /** The leader only: one pass of commands, interests and ready keys; blocks in select up to the timeout (ms, 0: until ready or woken) if asked. */
    private int pollOnce(final boolean block, final long timeoutMs)
    {
        try
        {
            final int work = runCommands() + processInterests();
            if (!block || work > 0)
            {
                return work + selector.selectNow(keyHandler);
            }
            selecting = true;
            final int selected;
            if (interests.isEmpty() && commands.isEmpty() && !handoverWanted)
            {
                selected = selector.select(keyHandler, timeoutMs);
            }
            else
            {
                selected = selector.selectNow(keyHandler);
            }
            selecting = false;
            return selected;
        }
        catch (final IOException | RuntimeException e)
        {
            selecting = false;
            if (running)
            {
                LOG.error("node {}: selector loop error", environment.ownNodeId(), e);
            }
            return 0;
        }
    }

    /**
     * Leader/follower: a thread waiting for a response takes the selector loop over, so that the socket wakes it
     * directly instead of the selector thread waking it (one thread hand-off less per round trip). Only with the
     * inline coordinator, which completes the response on the reading thread. If another requester already leads,
     * or the selector thread does not hand over within a short bound, the caller waits on the future as usual.
     * The loop's state needs no lock: leadership passes through {@code leading} (a CAS to take it, a volatile store to
     * give it back), which orders everything the previous leader did before everything the next one does.
     */
    @Override
    public boolean awaitResponse(final CompletableFuture<?> response, final long deadlineNs)
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
                writeOut(connection);
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
                    readIn(channel);
                }
                if (key.isValid() && key.isWritable())
                {
                    writeOut(channel.connection);
                }
            }
            else if (attachment instanceof PendingAccept pending)
            {
                if (key.isReadable())
                {
                    readHello(pending);
                }
            }
            else if (key.isAcceptable())
            {
                accept();
            }
        }
        catch (final java.nio.channels.CancelledKeyException e)
        {
            // closed concurrently by another thread
        }
    }

    private void accept()
    {
        try
        {
            final SocketChannel channel = server.accept();
            if (channel == null)
            {
                return;
            }
            channel.configureBlocking(false);
            configure(channel);
            final String peer = String.valueOf(channel.getRemoteAddress());
            final SelectionKey key = channel.register(selector, SelectionKey.OP_READ);
            key.attach(new PendingAccept(channel, key, peer));
        }
        catch (final IOException e)
        {
            LOG.warn("node {}: accept failed: {}", environment.ownNodeId(), e.getMessage());
        }
    }

    private void readIn(final NioChannel channel)
    {
        final Connection connection = channel.connection;
        final IncomingBuffer buffer = environment.bufferPool().acquire();
        final ByteBuffer target = buffer.byteBuffer();
        int total = 0;
        boolean ended = false;
        String failure = null;
        try
        {
            while (target.hasRemaining())
            {
                final int n = channel.channel.read(target);
                if (n <= 0)
                {
                    ended = n < 0;
                    break;
                }
                total += n;
                if (target.hasRemaining())
                {
                    break; // the socket is drained: skip the read that would return 0 (the key stays readable if not)
                }
            }
        }
        catch (final IOException e)
        {
            failure = e.getMessage();
        }
        if (total > 0)
        {
            environment.pushIncoming(buffer.connection(connection).length(total));
        }
        else
        {
            buffer.release();
        }
        if (ended || failure != null)
        {
            channel.key.cancel();
            channel.failed = true;
            closeChannel(channel.channel);
            environment.endOfStream(connection, failure == null ?
                "node " + connection.nodeId() + " (" + channel.peer + ") closed the connection" :
                "connection to node " + connection.nodeId() + " (" + channel.peer + ") failed: " + failure);
        }
    }

    /** Reads the hello; once it is whole, accepts or rejects the socket under {@link PeerLink}'s rule. */
    private void readHello(final PendingAccept pending)
    {
        try
        {
            if (pending.channel.read(pending.hello) < 0)
            {
                dropPending(pending);
                if (pending.hello.position() > 0)
                {
                    LOG.warn("node {}: peer {} closed during the handshake after {} of {} bytes",
                        environment.ownNodeId(), pending.peer, pending.hello.position(), HandshakeDescriptor.LENGTH);
                }
                return;
            }
        }
        catch (final IOException e)
        {
            dropPending(pending);
            return;
        }
        if (pending.hello.hasRemaining())
        {
            return;
        }
        final ByteBuffer hello = pending.hello;
        final int magic = HandshakeDescriptor.magic(hello);
        if (magic != HandshakeDescriptor.HELLO_MAGIC)
        {
            LOG.warn("node {}: bad handshake from {}: magic 0x{} (expected 0x{}); closing the connection",
                environment.ownNodeId(), pending.peer, Integer.toHexString(magic),
                Integer.toHexString(HandshakeDescriptor.HELLO_MAGIC));
            dropPending(pending);
            return;
        }
        final int node = HandshakeDescriptor.nodeId(hello);
        final int port = HandshakeDescriptor.port(hello);
        final long peerIncarnation = HandshakeDescriptor.incarnation(hello);
        final long peerGeneration = HandshakeDescriptor.generation(hello);
        if (port != 0 && context.addressMap().address(node) == null &&
            pending.channel.socket().getInetAddress() != null)
        {
            // learn the address of a node that connected first, so this node can reconnect to it later
            context.addressMap().put(node, new InetSocketAddress(pending.channel.socket().getInetAddress(), port));
        }
        final int own = environment.ownNodeId();
        if (node == own)
        {
            acceptSelf(pending);
            return;
        }
        final PeerLink link = link(node);
        synchronized (link)
        {
            final boolean accept;
            if (link.boundOpen())
            {
                accept = peerIncarnation != link.peerIncarnation || peerGeneration >= link.generation;
            }
            else if (link.connecting)
            {
                accept = node < own;
            }
            else
            {
                accept = true;
            }
            final long generation = Math.max(link.generation, peerGeneration) + 1;
            if (!accept)
            {
                LOG.debug("node {}: rejected a second socket from node {} ({}): crossed connect", own, node, pending.peer);
                writeReply(pending, HandshakeDescriptor.REJECT, link.generation);
                dropPending(pending);
                return;
            }
            // closes an older connection to the node that still had its socket (the peer restarted or reconnected)
            final Connection connection = environment.acceptIncoming(node);
            if (!writeReply(pending, HandshakeDescriptor.ACCEPT, generation))
            {
                dropPending(pending);
                environment.endOfStream(connection, "handshake reply to node " + node + " (" + pending.peer + ") failed");
                return;
            }
            final NioChannel bound = bind(link, pending.channel, connection, pending.peer, peerIncarnation, generation);
            bound.key = pending.key;
            pending.key.attach(bound);
            connection.outgoingOpen(true);
        }
        final Connection connection = ((NioChannel)pending.key.attachment()).connection;
        writeOut(connection);
        if (pending.key.isValid() && pending.channel.isOpen())
        {
            readIn((NioChannel)pending.key.attachment()); // frames may have followed the hello
        }
    }

    /**
     * A node's connection to itself: the connector's end of the socket carries its writes (it is bound on the accept
     * reply as usual) and this accepted end only reads them, for the same connection object. No crossed connect is
     * possible with oneself, so the socket is always accepted.
     */
    private void acceptSelf(final PendingAccept pending)
    {
        final Connection connection = environment.acceptIncoming(environment.ownNodeId());
        if (!writeReply(pending, HandshakeDescriptor.ACCEPT, 0))
        {
            dropPending(pending);
            return;
        }
        final NioChannel reader = new NioChannel(pending.channel, connection, pending.peer);
        reader.key = pending.key;
        pending.key.attach(reader);
        readIn(reader);
    }

    /** Non-blocking write of the 24-byte reply into the fresh socket's empty send buffer; false if it failed. */
    private boolean writeReply(final PendingAccept pending, final int verdict, final long generation)
    {
        final ByteBuffer reply = HandshakeDescriptor.reply(replyBuffer, environment.ownNodeId(), verdict, incarnation,
            generation);
        try
        {
            for (int attempt = 0; attempt < 1000 && reply.hasRemaining(); attempt++)
            {
                pending.channel.write(reply);
            }
            return !reply.hasRemaining();
        }
        catch (final IOException e)
        {
            return false;
        }
    }

    private void dropPending(final PendingAccept pending)
    {
        pending.key.cancel();
        closeChannel(pending.channel);
    }

    private void fail(final Connection connection, final String reason)
    {
        if (!connection.isClosed())
        {
            environment.endOfStream(connection, reason);
        }
    }

    // ------------------------------------------------------------------ paper operation 5: close

    @Override
    public void close(final Connection connection)
    {
        if (connection.outgoingAttachment() instanceof NioChannel channel)
        {
            channel.failed = true;
            final PeerLink link = links.get(connection.nodeId());
            if (link != null)
            {
                synchronized (link)
                {
                    if (link.bound == channel)
                    {
                        link.bound = null;
                    }
                    link.notifyAll();
                }
            }
            closeChannel(channel.channel);
        }
        if (selector != null)
        {
            selector.wakeup();
        }
    }

    private static void closeChannel(final SocketChannel channel)
    {
        try
        {
            channel.close();
        }
        catch (final IOException ignored)
        {
            // closing anyway
        }
    }

    @Override
    public void shutdown()
    {
        running = false;
        if (selector != null)
        {
            selector.wakeup();
        }
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
        closeQuietly();
    }

    private void closeQuietly()
    {
        try
        {
            if (selector != null)
            {
                for (final SelectionKey key : selector.keys())
                {
                    key.channel().close();
                }
                selector.close();
            }
            if (server != null)
            {
                server.close();
            }
        }
        catch (final IOException | RuntimeException e)
        {
            LOG.debug("closing selector", e);
        }
    }
}
