package io.sirocco.ib.row;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.sirocco.ib.verbs.QpEndpoint;
import io.sirocco.ib.verbs.Verbs;
import io.sirocco.multicast.spi.RowTransportContext;

/**
 * An in-memory RDMA fabric for the row transport's tests: registered tables are found by the (address, rkey) a peer
 * learned through the control exchange, exactly as a NIC would resolve a remote write, so a wrong or mixed-up
 * exchange shows as a remote access error instead of silently working. Queue pairs are numbered fabric-wide and
 * {@link FakeRowView#connect} checks that the peer's QP was created by that peer for this member.
 *
 * <p>Writes execute at post time, in posting order per queue pair: data writes as byte copies, inline writes per
 * 8-byte word with release semantics (the NIC's ordered, untorn word writes); every error completes with an error
 * status, signaled requests complete on the next poll. {@link #failWrites} makes a link fail like a dead peer
 * ({@code IBV_WC_RETRY_EXC_ERR}). Thread-safe: concurrent maps; each view's writer is used by one thread.
 */
final class FakeRdmaFabric
{
    /** IBV_WC_REM_ACCESS_ERR: the address or rkey does not match a registration of the target. */
    static final int WC_REM_ACCESS_ERR = 10;
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    private final AtomicLong nextAddress = new AtomicLong(0x7f00_0000_0000L);
    private final AtomicInteger nextKey = new AtomicInteger(0x1000);
    private final AtomicInteger nextQp = new AtomicInteger(0x100);
    private final Map<Long, Region> regions = new ConcurrentHashMap<>();
    private final Map<Integer, QpOwner> queuePairs = new ConcurrentHashMap<>();
    private final Set<String> failing = ConcurrentHashMap.newKeySet();

    private record Region(MemorySegment segment, int rkey)
    {
    }

    /** Who created a queue pair, and for which peer. */
    private record QpOwner(String group, long viewId, int ownerRank, int forRank)
    {
    }

    /** Writes from member {@code from} to member {@code to} of {@code group} fail from now on. */
    void failWrites(final String group, final long fromMemberId, final long toMemberId)
    {
        failing.add(group + "/" + fromMemberId + ">" + toMemberId);
    }

    /** Opens the verbs of one member's view on this fabric. */
    FakeRowView view(final RowTransportContext context)
    {
        return new FakeRowView(context);
    }

    /** Writes a remote range, or returns an error status. */
    private int write(final long address, final int rkey, final MemorySegment source)
    {
        for (final Map.Entry<Long, Region> e : regions.entrySet())
        {
            final long base = e.getKey();
            final Region r = e.getValue();
            if (address >= base && address + source.byteSize() <= base + r.segment().byteSize())
            {
                if (r.rkey() != rkey)
                {
                    return WC_REM_ACCESS_ERR;
                }
                MemorySegment.copy(source, 0, r.segment(), address - base, source.byteSize());
                return Verbs.WC_SUCCESS;
            }
        }
        return WC_REM_ACCESS_ERR;
    }

    private int writeWords(final long address, final int rkey, final long[] words)
    {
        for (final Map.Entry<Long, Region> e : regions.entrySet())
        {
            final long base = e.getKey();
            final Region r = e.getValue();
            if (address >= base && address + 8L * words.length <= base + r.segment().byteSize())
            {
                if (r.rkey() != rkey)
                {
                    return WC_REM_ACCESS_ERR;
                }
                for (int i = 0; i < words.length; i++)
                {
                    WORD.setRelease(r.segment(), address - base + 8L * i, words[i]);
                }
                return Verbs.WC_SUCCESS;
            }
        }
        return WC_REM_ACCESS_ERR;
    }

    /** One member's view: its registered table, its queue pairs, its completion queue. */
    final class FakeRowView implements RowViewVerbs
    {
        private final RowTransportContext context;
        private final MemorySegment table;
        private final long address;
        private final int rkey;
        private final int[] qpNums;
        private final long[] remoteRow;
        private final int[] rkeys;
        private final Queue<long[]> completions = new ConcurrentLinkedQueue<>();
        private volatile boolean closed;

        FakeRowView(final RowTransportContext context)
        {
            this.context = context;
            final int members = context.memberCount();
            // never freed while a peer might still write into it: reclaimed by the GC with the view
            this.table = Arena.ofAuto().allocate(members * context.rowLengthBytes(), 4096);
            this.address = nextAddress.getAndAdd(1L << 32);
            this.rkey = nextKey.getAndIncrement();
            regions.put(address, new Region(table, rkey));
            this.qpNums = new int[members];
            this.remoteRow = new long[members];
            this.rkeys = new int[members];
        }

        @Override
        public MemorySegment table()
        {
            return table;
        }

        @Override
        public RowRegionInfo localInfo(final int peer)
        {
            if (0 == qpNums[peer])
            {
                qpNums[peer] = nextQp.getAndIncrement();
                queuePairs.put(qpNums[peer], new QpOwner(context.groupName(), context.viewId(), context.myRank(),
                    peer));
            }
            return new RowRegionInfo(new QpEndpoint(1, qpNums[peer], qpNums[peer] * 7, new byte[16]), address, rkey,
                table.byteSize());
        }

        @Override
        public void connect(final int peer, final RowRegionInfo remote)
        {
            final QpOwner owner = queuePairs.get(remote.endpoint().qpNum());
            final QpOwner expected = new QpOwner(context.groupName(), context.viewId(), peer, context.myRank());
            if (!expected.equals(owner))
            {
                throw new IllegalStateException("rank " + context.myRank() + " was told to connect to QP "
                    + remote.endpoint().qpNum() + " of " + owner + ", expected one of " + expected);
            }
            remoteRow[peer] = remote.tableAddress() + context.myRank() * context.rowLengthBytes();
            rkeys[peer] = remote.rkey();
        }

        @Override
        public RowWriteVerbs writer()
        {
            final long myRow = context.myRank() * context.rowLengthBytes();
            return new RowWriteVerbs()
            {
                @Override
                public int postWrite(final int peer, final long wrId, final long rowOffset, final int lengthBytes,
                    final boolean signaled)
                {
                    final int status = failed(peer) ? Verbs.WC_RETRY_EXC_ERR
                        : write(remoteRow[peer] + rowOffset, rkeys[peer],
                            table.asSlice(myRow + rowOffset, lengthBytes));
                    complete(wrId, status, signaled);
                    return 0;
                }

                @Override
                public int postInline(final int peer, final long wrId, final long rowOffset,
                    final MemorySegment bytes, final boolean signaled)
                {
                    final int status = failed(peer) ? Verbs.WC_RETRY_EXC_ERR
                        : writeWords(remoteRow[peer] + rowOffset, rkeys[peer], bytes.toArray(ValueLayout.JAVA_LONG));
                    complete(wrId, status, signaled);
                    return 0;
                }

                @Override
                public int poll(final CompletionSink sink)
                {
                    int n = 0;
                    long[] c;
                    while (null != (c = completions.poll()))
                    {
                        sink.onCompletion(c[0], (int)c[1]);
                        n++;
                    }
                    return n;
                }
            };
        }

        private boolean failed(final int peer)
        {
            return failing.contains(context.groupName() + "/" + context.members().get(context.myRank()).memberId()
                + ">" + context.members().get(peer).memberId());
        }

        private void complete(final long wrId, final int status, final boolean signaled)
        {
            if (signaled || Verbs.WC_SUCCESS != status)
            {
                completions.add(new long[] {wrId, status});
            }
        }

        @Override
        public void close()
        {
            if (!closed)
            {
                closed = true;
                regions.remove(address);
                for (final int qp : qpNums)
                {
                    queuePairs.remove(qp);
                }
            }
        }
    }
}
