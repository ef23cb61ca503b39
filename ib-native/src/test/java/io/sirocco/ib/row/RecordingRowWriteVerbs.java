package io.sirocco.ib.row;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * A fake verbs layer that records every post (copying inline payloads at post time, as the NIC does) and models one
 * send queue per peer: requests stay outstanding until a signaled completion retires them and all earlier ones.
 */
final class RecordingRowWriteVerbs implements RowWriteVerbs
{
    /** One posted work request. {@code values} holds the inline payload as longs, empty for lazy writes. */
    record Post(int peer, long wrId, boolean inline, long rowOffset, long lengthBytes, long[] values, boolean signaled,
        long outstandingAfterPost)
    {
    }

    final List<Post> posts = new ArrayList<>();
    final List<Integer> frozenPeers = new ArrayList<>();
    final Deque<long[]> pendingCompletions = new ArrayDeque<>(); // {wrId, status}
    private final long[] posted;
    private final long[] retired;
    boolean autoComplete = true;
    int failPostsTo = -1;

    RecordingRowWriteVerbs(final int members)
    {
        posted = new long[members];
        retired = new long[members];
    }

    @Override
    public int postWrite(final int peer, final long wrId, final long rowOffset, final int lengthBytes,
        final boolean signaled)
    {
        return record(new Post(peer, wrId, false, rowOffset, lengthBytes, new long[0], signaled, 0));
    }

    @Override
    public int postInline(final int peer, final long wrId, final long rowOffset, final MemorySegment bytes,
        final boolean signaled)
    {
        return record(new Post(peer, wrId, true, rowOffset, bytes.byteSize(), bytes.toArray(ValueLayout.JAVA_LONG),
            signaled, 0));
    }

    private int record(final Post post)
    {
        if (post.peer() == failPostsTo)
        {
            return 12; // ENOMEM
        }
        posted[post.peer()]++;
        posts.add(new Post(post.peer(), post.wrId(), post.inline(), post.rowOffset(), post.lengthBytes(),
            post.values(), post.signaled(), posted[post.peer()] - retired[post.peer()]));
        if (post.signaled() && autoComplete)
        {
            pendingCompletions.add(new long[] {post.wrId(), 0});
        }
        return 0;
    }

    @Override
    public int poll(final CompletionSink sink)
    {
        int n = 0;
        while (!pendingCompletions.isEmpty())
        {
            final long[] completion = pendingCompletions.poll();
            final int peer = PushPlanner.peerOf(completion[0]);
            if (0 == completion[1])
            {
                retired[peer] = Math.max(retired[peer], (completion[0] & ((1L << 40) - 1)) + 1);
            }
            sink.onCompletion(completion[0], (int)completion[1]);
            n++;
        }
        return n;
    }

    @Override
    public void frozen(final int peer)
    {
        frozenPeers.add(peer);
    }

    List<Post> postsTo(final int peer)
    {
        return posts.stream().filter(p -> p.peer() == peer).toList();
    }
}
