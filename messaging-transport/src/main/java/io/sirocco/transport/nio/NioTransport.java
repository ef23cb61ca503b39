package io.sirocco.transport.nio;

import io.sirocco.transport.NodeUnreachableException;
import io.sirocco.transport.TransportContext;
import io.sirocco.transport.concurrent.MpmcArrayQueue;
import io.sirocco.transport.incoming.IncomingBuffer;
import io.sirocco.transport.orb.OutgoingRingBuffer;
import io.sirocco.transport.protocol.FrameDescriptor;
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
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;

/**
 * The TCP transport over Java NIO, as EthDXNet: one selector thread, two one-way sockets per node pair, writes
 * straight from the ring, credit bytes on each socket's back direction, and an interest queue.
 *
 * <p><b>Two one-way channels.</b> Each node sends on the socket it opened ({@link PipeOut}) and receives on the one
 * the peer opened ({@link PipeIn}). Crossed simultaneous connects therefore yield exactly one socket per direction:
 * nothing to tie-break, nothing lost. The first 8 bytes on a new socket are the handshake (magic, node id, listening port).
 *
 * <p><b>Interest queue.</b> Producer threads never touch selection keys. {@link #signal} sets bits in the
 * connection's interest word; only the thread that turns the word from zero enqueues the connection (so a busy
 * connection costs one atomic read per message), and the selector is woken only if it is blocked in
 * {@code select} ({@code selecting} is a volatile Dekker pair with the queue). The selector applies the bits
 * before each select.
 *
 * <p><b>Direct writes.</b> With {@code directWrite} (default) the signalling thread writes the ring to the socket
 * itself when it gets the ring's consumer lock; it hands over to the selector (OP_WRITE) only when the socket is
 * full. This saves a thread hand-off per round trip.
 *
 * <p><b>Idle.</b> The selector spins on {@code selectNow}, then yields, then blocks in {@code select}, with the
 * context's thresholds.
 */
public final class NioTransport implements Transport
{
    private static final Logger LOG = LoggerFactory.getLogger(NioTransport.class);

    private final TransportContext context;
    private final MpmcArrayQueue<Connection> interests = new MpmcArrayQueue<>(1 << 16);
    private final ConcurrentLinkedQueue<Runnable> commands = new ConcurrentLinkedQueue<>();
    private final Consumer<SelectionKey> keyHandler = this::onKey;
    private final boolean directWrite;
    private TransportEnvironment environment;
    private Selector selector;
    private ServerSocketChannel server;
    private Thread thread;
    private volatile boolean selecting;
    private volatile boolean running;

    NioTransport(final TransportContext context)
    {
        this.context = context;
        this.directWrite = context.directWrite();
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

    // ------------------------------------------------------------------ paper operation 4: set up

    @Override
    public void connect(final Connection connection, final long timeoutNs)
    {
        final int node = connection.nodeId();
        final InetSocketAddress address = context.addressMap().address(node);
        if (address == null)
        {
            throw new NodeUnreachableException(node, "no address for node " + node + " in the node address map");
        }
        SocketChannel channel = null;
        try
        {
            channel = SocketChannel.open();
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.setOption(StandardSocketOptions.SO_SNDBUF, context.socketBufferBytes());
            channel.socket().connect(address, (int)Math.max(1, timeoutNs / 1_000_000));
            final ByteBuffer hello = ByteBuffer.allocate(FrameDescriptor.HELLO_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
            hello.putInt(FrameDescriptor.HELLO_MAGIC).putShort((short)environment.ownNodeId())
                .putShort((short)listenAddress().getPort()).flip();
            while (hello.hasRemaining())
            {
                channel.write(hello);
            }
            channel.configureBlocking(false);
        }
        catch (final IOException e)
        {
            if (channel != null)
            {
                try
                {
                    channel.close();
                }
                catch (final IOException ignored)
                {
                    // already failing
                }
            }
            throw new NodeUnreachableException(node, "connect to " + address + " failed: " + e.getMessage(), e);
        }
        final PipeOut out = new PipeOut(channel, connection, address.toString());
        connection.peerDescription(address.toString());
        connection.outgoingAttachment(out);
        command(() -> register(out));
    }

    private void register(final PipeOut out)
    {
        try
        {
            out.key = out.channel.register(selector, SelectionKey.OP_READ, out);
            writeOut(out.connection);
        }
        catch (final IOException e)
        {
            fail(out.connection, "register outgoing channel: " + e.getMessage());
        }
    }

    // ------------------------------------------------------------------ paper operation 1: signal

    @Override
    public void signal(final Connection connection, final int what)
    {
        if ((what & DATA) != 0)
        {
            if (Thread.currentThread() == thread)
            {
                writeOut(connection); // a handler or the inline coordinator runs on the selector thread
            }
            else if (directWrite)
            {
                writeDirect(connection);
            }
            else
            {
                queue(connection, DATA);
            }
        }
        if ((what & CREDITS) != 0)
        {
            queue(connection, CREDITS);
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

    private void writeDirect(final Connection connection)
    {
        if (!(connection.outgoingAttachment() instanceof PipeOut out))
        {
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
                complete = writeRing(out, ring);
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
        while (ring.readableBytes() > 0);
    }

    /** Selector thread: write what the ring holds; keep OP_WRITE while the socket is full. */
    private void writeOut(final Connection connection)
    {
        if (!(connection.outgoingAttachment() instanceof PipeOut out) || out.key == null)
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
                complete = writeRing(out, ring);
            }
            finally
            {
                ring.unlockConsumer();
            }
        }
        while (complete && ring.readableBytes() > 0);
        if (out.key.isValid())
        {
            out.key.interestOps(complete ? SelectionKey.OP_READ : SelectionKey.OP_READ | SelectionKey.OP_WRITE);
        }
    }

    /** Consumer lock held: gathering writes of the readable pieces; false if the socket is full. */
    private boolean writeRing(final PipeOut out, final OutgoingRingBuffer ring)
    {
        try
        {
            while (true)
            {
                final int pieces = ring.prepareRead(Integer.MAX_VALUE);
                if (pieces == 0)
                {
                    return true;
                }
                if (out.failed)
                {
                    ring.consumed(ring.readableBytes());
                    return true;
                }
                final long written = out.channel.write(ring.pieces(), 0, pieces);
                if (written <= 0)
                {
                    return false;
                }
                ring.consumed((int)written);
            }
        }
        catch (final IOException e)
        {
            out.failed = true;
            ring.consumed(ring.readableBytes());
            fail(out.connection, "write to " + out.peer + " failed: " + e.getMessage());
            return true;
        }
    }

    private void writeCredits(final Connection connection)
    {
        if (!(connection.incomingAttachment() instanceof PipeIn in))
        {
            return;
        }
        final int credits = connection.flowControl().takeCredits();
        if (credits == 0)
        {
            return;
        }
        try
        {
            in.credit.clear();
            in.credit.put((byte)credits).flip();
            if (in.channel.write(in.credit) == 0)
            {
                connection.flowControl().returnCredits(credits);
                if (in.key.isValid())
                {
                    in.key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
                }
            }
        }
        catch (final IOException e)
        {
            fail(connection, "credit write to " + in.peer + " failed: " + e.getMessage());
        }
    }

    // ------------------------------------------------------------------ selector thread

    private void run()
    {
        final long spins = context.selectorSpins();
        final long yieldsEnd = spins + context.selectorYields();
        long idle = 0;
        while (running)
        {
            try
            {
                int work = runCommands() + processInterests();
                final int selected;
                if (idle < spins)
                {
                    selected = selector.selectNow(keyHandler);
                }
                else if (idle < yieldsEnd)
                {
                    Thread.yield();
                    selected = selector.selectNow(keyHandler);
                }
                else
                {
                    selecting = true;
                    if (interests.isEmpty() && commands.isEmpty())
                    {
                        selected = selector.select(keyHandler, 100);
                    }
                    else
                    {
                        selected = selector.selectNow(keyHandler);
                    }
                    selecting = false;
                }
                work += selected;
                idle = work > 0 ? 0 : idle + 1;
            }
            catch (final IOException | RuntimeException e)
            {
                if (running)
                {
                    LOG.error("node {}: selector loop error", environment.ownNodeId(), e);
                }
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
            final int bits = connection.takeInterest();
            count++;
            if (connection.isClosed())
            {
                continue;
            }
            if ((bits & CREDITS) != 0)
            {
                writeCredits(connection);
            }
            if ((bits & DATA) != 0)
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
            if (attachment instanceof PipeIn in)
            {
                if (key.isReadable())
                {
                    readIn(in);
                }
                if (key.isValid() && key.isWritable() && in.connection != null)
                {
                    key.interestOps(SelectionKey.OP_READ);
                    writeCredits(in.connection);
                }
            }
            else if (attachment instanceof PipeOut out)
            {
                if (key.isReadable())
                {
                    readCredits(out);
                }
                if (key.isValid() && key.isWritable())
                {
                    writeOut(out.connection);
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
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            final String peer = String.valueOf(channel.getRemoteAddress());
            final SelectionKey key = channel.register(selector, SelectionKey.OP_READ);
            key.attach(new PipeIn(channel, key, peer));
        }
        catch (final IOException e)
        {
            LOG.warn("node {}: accept failed: {}", environment.ownNodeId(), e.getMessage());
        }
    }

    private void readIn(final PipeIn in)
    {
        if (in.connection == null && !readHello(in))
        {
            return;
        }
        final Connection connection = in.connection;
        final IncomingBuffer buffer = environment.bufferPool().acquire();
        final ByteBuffer target = buffer.byteBuffer();
        int total = 0;
        boolean ended = false;
        String failure = null;
        try
        {
            while (target.hasRemaining())
            {
                final int n = in.channel.read(target);
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
            in.key.cancel();
            closeChannel(in.channel);
            environment.endOfStream(connection, failure == null ?
                "node " + connection.nodeId() + " (" + in.peer + ") closed the connection" :
                "connection from node " + connection.nodeId() + " (" + in.peer + ") failed: " + failure);
        }
    }

    /** Reads the 6-byte handshake; true once the pipe is bound to its connection. */
    private boolean readHello(final PipeIn in)
    {
        try
        {
            if (in.channel.read(in.hello) < 0)
            {
                in.key.cancel();
                closeChannel(in.channel);
                if (in.hello.position() > 0)
                {
                    LOG.warn("node {}: peer {} closed during the handshake after {} of {} bytes",
                        environment.ownNodeId(), in.peer, in.hello.position(), FrameDescriptor.HELLO_LENGTH);
                }
                return false;
            }
        }
        catch (final IOException e)
        {
            in.key.cancel();
            closeChannel(in.channel);
            return false;
        }
        if (in.hello.hasRemaining())
        {
            return false;
        }
        final int magic = in.hello.getInt(0);
        final int node = in.hello.getShort(4) & 0xFFFF;
        if (magic != FrameDescriptor.HELLO_MAGIC)
        {
            LOG.warn("node {}: bad handshake from {}: magic 0x{} (expected 0x{}); closing the connection",
                environment.ownNodeId(), in.peer, Integer.toHexString(magic),
                Integer.toHexString(FrameDescriptor.HELLO_MAGIC));
            in.key.cancel();
            closeChannel(in.channel);
            return false;
        }
        final int port = in.hello.getShort(6) & 0xFFFF;
        if (port != 0 && context.addressMap().address(node) == null &&
            in.channel.socket().getInetAddress() != null)
        {
            // learn the address of a node that connected first, so responses can go back to it
            context.addressMap().put(node, new InetSocketAddress(in.channel.socket().getInetAddress(), port));
        }
        final Connection connection = environment.acceptIncoming(node);
        connection.peerDescription(in.peer);
        connection.incomingAttachment(in);
        in.connection = connection;
        return true;
    }

    private void readCredits(final PipeOut out)
    {
        final Connection connection = out.connection;
        try
        {
            out.credits.clear();
            final int n = out.channel.read(out.credits);
            if (n < 0)
            {
                out.key.cancel();
                fail(connection, "node " + connection.nodeId() + " (" + out.peer + ") closed the connection");
                return;
            }
            int credits = 0;
            for (int i = 0; i < n; i++)
            {
                credits += out.credits.get(i) & 0xFF;
            }
            if (credits > 0)
            {
                connection.flowControl().onCredits(credits);
            }
        }
        catch (final IOException e)
        {
            out.key.cancel();
            fail(connection, "connection to node " + connection.nodeId() + " (" + out.peer + ") failed: " + e.getMessage());
        }
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
        if (connection.outgoingAttachment() instanceof PipeOut out)
        {
            out.failed = true;
            closeChannel(out.channel);
        }
        if (connection.incomingAttachment() instanceof PipeIn in)
        {
            closeChannel(in.channel);
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
