package io.sirocco.ib.row;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

import io.sirocco.multicast.spi.RowTransport;
import io.sirocco.multicast.spi.RowTransportContext;
import io.sirocco.multicast.spi.RowTransportProvider;

/**
 * Test provider {@code rdma-fake}: the real {@link RdmaRowTransport} and {@link PushPlanner} over an in-memory
 * fabric that executes each member's work requests the way an RC queue pair does: in posting order per peer, data
 * writes as byte copies into the peer's table at this member's row, inline writes per 8-byte word with release
 * semantics (the NIC's ordered, untorn word writes), signaled requests completing on the next poll. Writes to a
 * member that has not opened the view yet are queued and applied, in order, when it opens.
 */
public final class FakeRdmaRowTransportProvider implements RowTransportProvider
{
    static final List<String> SUSPICIONS = new java.util.concurrent.CopyOnWriteArrayList<>();
    private static final Map<String, View> VIEWS = new ConcurrentHashMap<>();
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    /** The tables of one view, by rank, and the writes waiting for members that have not opened yet. */
    private static final class View
    {
        final MemorySegment[] tables;
        final List<List<Runnable>> pending = new ArrayList<>();

        View(final int members)
        {
            tables = new MemorySegment[members];
            for (int i = 0; i < members; i++)
            {
                pending.add(new ArrayList<>());
            }
        }

        /** Runs {@code write} against {@code peer}'s table now, or when it opens; per-peer order is kept. */
        void apply(final int peer, final java.util.function.Consumer<MemorySegment> write)
        {
            synchronized (pending.get(peer))
            {
                if (null == tables[peer])
                {
                    pending.get(peer).add(() -> write.accept(tables[peer]));
                }
                else
                {
                    write.accept(tables[peer]);
                }
            }
        }

        void open(final int rank, final MemorySegment table)
        {
            synchronized (pending.get(rank))
            {
                tables[rank] = table;
                pending.get(rank).forEach(Runnable::run);
                pending.get(rank).clear();
            }
        }
    }

    @Override
    public String name()
    {
        return "rdma-fake";
    }

    @Override
    public RowTransport open(final RowTransportContext context)
    {
        final int members = context.memberCount();
        final long rowLength = context.rowLengthBytes();
        final int me = context.myRank();
        final View view = VIEWS.computeIfAbsent(context.groupName() + "/" + context.viewId(), k -> new View(members));
        // never freed while peers might still write into it: test memory, reclaimed with the view map entry's table
        final MemorySegment table = Arena.ofAuto().allocate(members * rowLength, 4096);
        final Queue<Long> completions = new ConcurrentLinkedQueue<>();
        final long myRowOffset = me * rowLength;
        final RowWriteVerbs verbs = new RowWriteVerbs()
        {
            @Override
            public int postWrite(final int peer, final long wrId, final long rowOffset, final int lengthBytes,
                final boolean signaled)
            {
                final byte[] bytes = table.asSlice(myRowOffset + rowOffset, lengthBytes)
                    .toArray(ValueLayout.JAVA_BYTE);
                view.apply(peer, target -> MemorySegment.copy(bytes, 0, target, ValueLayout.JAVA_BYTE,
                    myRowOffset + rowOffset, lengthBytes));
                complete(wrId, signaled);
                return 0;
            }

            @Override
            public int postInline(final int peer, final long wrId, final long rowOffset, final MemorySegment bytes,
                final boolean signaled)
            {
                final long[] words = bytes.toArray(ValueLayout.JAVA_LONG);
                view.apply(peer, target ->
                {
                    for (int i = 0; i < words.length; i++)
                    {
                        WORD.setRelease(target, myRowOffset + rowOffset + 8L * i, words[i]);
                    }
                });
                complete(wrId, signaled);
                return 0;
            }

            private void complete(final long wrId, final boolean signaled)
            {
                if (signaled)
                {
                    completions.add(wrId);
                }
            }

            @Override
            public int poll(final CompletionSink sink)
            {
                int n = 0;
                Long wrId;
                while (null != (wrId = completions.poll()))
                {
                    sink.onCompletion(wrId, 0);
                    n++;
                }
                return n;
            }
        };
        final PushPlanner planner = new PushPlanner(verbs, table.asSlice(myRowOffset, rowLength), me, members,
            new PushPlannerConfig(4, 16, 64, 30_000_000_000L),
            (rank, reason) -> SUSPICIONS.add(context.groupName() + " rank " + rank + ": " + reason), System::nanoTime);
        view.open(me, table);
        return new RdmaRowTransport(table, planner, rowLength, () -> { });
    }
}
