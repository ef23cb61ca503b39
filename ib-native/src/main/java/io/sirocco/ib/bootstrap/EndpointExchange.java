package io.sirocco.ib.bootstrap;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * The TCP control exchange that sets up RDMA between the members of one view: every pair of members swaps one
 * blob (QP number, PSN, LID, GID, and for the row transport the table's address and rkey). It is the cold path, run
 * once per view on the thread that opens the transport; it blocks until every peer answered or the deadline passed.
 *
 * <p>Symmetric and duplicate-free: a member accepts from every higher rank and connects to every lower rank, so each
 * pair uses exactly one connection. Frames are {@code u32 magic, u64 session, u32 fromRank, u32 length, bytes}; the
 * session (group and view) keeps a late peer of an old view from being taken for this one. A wrong magic, session
 * or rank is logged by the caller's exception and the connection is dropped; nothing a peer sends crashes us.
 */
public final class EndpointExchange implements AutoCloseable
{
    private static final int MAGIC = 0x51C0_1B0B;
    private static final int MAX_BLOB_BYTES = 64 * 1024;

    private final ServerSocket server;
    private final int myRank;
    private long session;

    /** Listens on {@code bindAddress} (port 0 picks one; see {@link #port()}). */
    public EndpointExchange(final InetSocketAddress bindAddress, final int myRank) throws IOException
    {
        this.server = new ServerSocket();
        this.server.setReuseAddress(true);
        this.server.bind(bindAddress);
        this.myRank = myRank;
    }

    /** The port actually bound. */
    public int port()
    {
        return server.getLocalPort();
    }

    /**
     * Swaps blobs with every other member. May be called again (a second round with another session is the barrier
     * after the queue pairs are ready).
     *
     * @param session     identifies the group, view and round; both sides must agree
     * @param addresses  each member's exchange address, indexed by rank (this member's entry is ignored)
     * @param blobForPeer what to send to a given peer rank
     * @param timeoutMs  deadline for the whole exchange
     * @return each peer's blob, by rank
     * @throws IOException naming the peer that did not answer in time or sent garbage
     */
    public Map<Integer, byte[]> exchange(
        final long session, final InetSocketAddress[] addresses, final IntFunction<byte[]> blobForPeer, final long timeoutMs)
        throws IOException
    {
        this.session = session;
        final long deadlineMs = System.currentTimeMillis() + timeoutMs;
        final Map<Integer, byte[]> received = new HashMap<>();
        for (int peer = 0; peer < myRank; peer++)
        {
            received.put(peer, connectAndSwap(peer, addresses[peer], blobForPeer.apply(peer), deadlineMs));
        }
        int pendingAccepts = addresses.length - myRank - 1;
        while (pendingAccepts > 0)
        {
            final long leftMs = deadlineMs - System.currentTimeMillis();
            if (leftMs <= 0)
            {
                throw new IOException("RDMA endpoint exchange: " + pendingAccepts + " higher-ranked member(s) of "
                    + addresses.length + " did not connect to rank " + myRank + " on port " + port() + " within "
                    + timeoutMs + " ms (missing: " + missingAbove(received, addresses.length) + ")");
            }
            server.setSoTimeout((int)Math.min(Integer.MAX_VALUE, leftMs));
            try (Socket socket = server.accept())
            {
                socket.setSoTimeout((int)Math.max(1, Math.min(Integer.MAX_VALUE, deadlineMs - System.currentTimeMillis())));
                final DataInputStream in = new DataInputStream(socket.getInputStream());
                final Frame hello = read(in);
                if (hello.fromRank() <= myRank || hello.fromRank() >= addresses.length
                    || received.containsKey(hello.fromRank()))
                {
                    continue; // not a peer we expect here; drop it
                }
                write(new DataOutputStream(socket.getOutputStream()), blobForPeer.apply(hello.fromRank()));
                received.put(hello.fromRank(), hello.blob());
                pendingAccepts--;
            }
            catch (final SocketTimeoutException ex)
            {
                // loop re-checks the deadline and reports who is missing
            }
            catch (final IOException ex)
            {
                // a bad or broken hello: drop that connection, keep waiting for the real peer
            }
        }
        return received;
    }

    @Override
    public void close() throws IOException
    {
        server.close();
    }

    private byte[] connectAndSwap(
        final int peer, final InetSocketAddress address, final byte[] blob, final long deadlineMs) throws IOException
    {
        IOException last = null;
        while (System.currentTimeMillis() < deadlineMs)
        {
            try (Socket socket = new Socket())
            {
                final int leftMs = (int)Math.max(1, Math.min(Integer.MAX_VALUE, deadlineMs - System.currentTimeMillis()));
                socket.connect(address, leftMs);
                socket.setSoTimeout(leftMs);
                socket.setTcpNoDelay(true);
                write(new DataOutputStream(socket.getOutputStream()), blob);
                final Frame reply = read(new DataInputStream(socket.getInputStream()));
                if (reply.fromRank() != peer)
                {
                    throw new IOException("expected rank " + peer + " at " + address + ", got " + reply.fromRank());
                }
                return reply.blob();
            }
            catch (final IOException ex)
            {
                last = ex; // the peer may not listen yet: retry until the deadline
                try
                {
                    Thread.sleep(20);
                }
                catch (final InterruptedException ie)
                {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while connecting to rank " + peer, ie);
                }
            }
        }
        throw new IOException("RDMA endpoint exchange: rank " + peer + " at " + address
            + " did not answer rank " + myRank + " before the deadline", last);
    }

    private void write(final DataOutputStream out, final byte[] blob) throws IOException
    {
        out.writeInt(MAGIC);
        out.writeLong(session);
        out.writeInt(myRank);
        out.writeInt(blob.length);
        out.write(blob);
        out.flush();
    }

    private Frame read(final DataInputStream in) throws IOException
    {
        final int magic = in.readInt();
        if (MAGIC != magic)
        {
            throw new IOException("not an RDMA endpoint exchange frame (magic " + Integer.toHexString(magic) + ")");
        }
        final long theirSession = in.readLong();
        if (theirSession != session)
        {
            throw new IOException("exchange session " + theirSession + " is not ours (" + session + ")");
        }
        final int fromRank = in.readInt();
        final int length = in.readInt();
        if (length < 0 || length > MAX_BLOB_BYTES)
        {
            throw new IOException("exchange blob length " + length + " out of range");
        }
        final byte[] blob = new byte[length];
        in.readFully(blob);
        return new Frame(fromRank, blob);
    }

    private String missingAbove(final Map<Integer, byte[]> received, final int members)
    {
        final StringBuilder missing = new StringBuilder();
        for (int rank = myRank + 1; rank < members; rank++)
        {
            if (!received.containsKey(rank))
            {
                missing.append(missing.isEmpty() ? "" : ", ").append("rank ").append(rank);
            }
        }
        return missing.toString();
    }

    private record Frame(int fromRank, byte[] blob)
    {
    }
}
