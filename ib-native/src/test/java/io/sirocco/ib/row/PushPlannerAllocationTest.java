package io.sirocco.ib.row;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The push path is allocation-free: pushes, guards, counter snapshots, signaling and completion polling over a
 * verbs layer that itself allocates nothing. A single object per push would show as megabytes over the measured
 * pushes; the bound leaves room only for one-off runtime noise.
 */
final class PushPlannerAllocationTest
{
    private static final int MEMBERS = 4;
    private static final int PUSHES = 200_000;

    /** Completes every signaled request on the next poll, from a preallocated ring. */
    private static final class NoAllocationVerbs implements RowWriteVerbs
    {
        private final long[] pending = new long[4096];
        private int head;
        private int tail;
        long posts;

        @Override
        public int postWrite(final int peer, final long wrId, final long rowOffset, final int lengthBytes,
            final boolean signaled)
        {
            return post(wrId, signaled);
        }

        @Override
        public int postInline(final int peer, final long wrId, final long rowOffset, final MemorySegment bytes,
            final boolean signaled)
        {
            return post(wrId, signaled);
        }

        private int post(final long wrId, final boolean signaled)
        {
            posts++;
            if (signaled)
            {
                pending[tail++ & (pending.length - 1)] = wrId;
            }
            return 0;
        }

        @Override
        public int poll(final CompletionSink sink)
        {
            int n = 0;
            while (head != tail)
            {
                sink.onCompletion(pending[head++ & (pending.length - 1)], 0);
                n++;
            }
            return n;
        }
    }

    @Test
    void pushingAllocatesNothingPerPush()
    {
        final MemorySegment row = Arena.ofAuto().allocate(4096, 64);
        final NoAllocationVerbs verbs = new NoAllocationVerbs();
        final PushPlanner planner = new PushPlanner(verbs, row, 1, MEMBERS, new PushPlannerConfig(4, 64, 64,
            60_000_000_000L), (rank, reason) -> { throw new AssertionError("suspected " + rank + ": " + reason); },
            System::nanoTime);
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final long thread = Thread.currentThread().threadId();

        run(planner, PUSHES); // warm-up: let the JIT compile the path
        final long before = threads.getThreadAllocatedBytes(thread);
        run(planner, PUSHES);
        final long allocated = threads.getThreadAllocatedBytes(thread) - before;

        assertThat(verbs.posts).isEqualTo(2L * PUSHES * 3 * (MEMBERS - 1));
        assertThat(allocated).as("bytes allocated over %d pushes", 3L * PUSHES).isLessThan(64 * 1024);
    }

    private static void run(final PushPlanner planner, final int pushes)
    {
        for (int n = 0; n < pushes; n++)
        {
            planner.pushBytes(256, 512);
            planner.pushCounters(64, 4);
            planner.pushGuard(128, n);
            planner.pollCompletions();
        }
    }
}
