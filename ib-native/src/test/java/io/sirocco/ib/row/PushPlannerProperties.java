package io.sirocco.ib.row;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.ArrayList;
import java.util.List;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Invariants of the push plan over random push sequences, signal cadences and queue depths, with completions
 * arriving whenever the planner polls: every peer receives exactly the same sequence of writes in call order, guards
 * and counters only ever travel inline, no send queue ever holds more than its depth, no more than k requests go by
 * without a signaled one, and a healthy peer is never suspected.
 */
final class PushPlannerProperties
{
    private static final int ROW_BYTES = 1024;

    record Op(int kind, int offset, int length, long value)
    {
    }

    @Provide
    Arbitrary<List<Op>> ops()
    {
        final Arbitrary<Op> op = Combinators.combine(
            Arbitraries.integers().between(0, 3),
            Arbitraries.integers().between(0, ROW_BYTES / 8 - 1),
            Arbitraries.integers().between(1, 16),
            Arbitraries.longs()).as((kind, word, count, value) ->
            {
                final int offset = word * 8;
                final int maxCount = Math.min(count, (ROW_BYTES - offset) / 8);
                return new Op(kind, offset, Math.max(1, maxCount), value);
            });
        return op.list().ofMaxSize(200);
    }

    @Property(tries = 200)
    void everyPeerGetsTheSamePlanWithinItsQueue(
        @ForAll("ops") final List<Op> ops,
        @ForAll @IntRange(min = 1, max = 8) final int signalEvery,
        @ForAll @IntRange(min = 2, max = 32) final int depthExtra,
        @ForAll @IntRange(min = 2, max = 5) final int members,
        @ForAll @IntRange(min = 0, max = 4) final int myRankSeed)
    {
        final int depth = signalEvery + depthExtra - 1;
        final int myRank = myRankSeed % members;
        final MemorySegment row = Arena.ofAuto().allocate(ROW_BYTES, 64);
        final RecordingRowWriteVerbs verbs = new RecordingRowWriteVerbs(members);
        final List<String> suspicions = new ArrayList<>();
        final PushPlanner planner = new PushPlanner(verbs, row, myRank, members,
            new PushPlannerConfig(signalEvery, depth, 32, Long.MAX_VALUE / 4),
            (rank, reason) -> suspicions.add(reason), System::nanoTime);

        final List<String> expected = new ArrayList<>();
        for (final Op op : ops)
        {
            switch (op.kind())
            {
                case 0 ->
                {
                    planner.pushBytes(op.offset(), Math.min(op.length() * 8, ROW_BYTES - op.offset()));
                    expected.add("write " + op.offset());
                }
                case 1 ->
                {
                    final long[] values = new long[op.length()];
                    for (int i = 0; i < op.length(); i++)
                    {
                        values[i] = op.value() + i;
                        row.set(ValueLayout.JAVA_LONG, op.offset() + 8L * i, values[i]);
                    }
                    planner.pushCounters(op.offset(), op.length());
                    for (int first = 0; first < op.length(); first += 4)
                    {
                        expected.add("inline " + (op.offset() + 8 * first) + " = " + Arrays.toString(
                            Arrays.copyOfRange(values, first, Math.min(op.length(), first + 4))));
                    }
                    row.fill((byte)0); // later changes must not reach what was posted
                }
                case 2 ->
                {
                    planner.pushGuard(op.offset(), op.value());
                    expected.add("inline " + op.offset() + " = " + Arrays.toString(new long[] {op.value()}));
                }
                default -> planner.pollCompletions();
            }
        }

        assertThat(suspicions).isEmpty();
        for (int peer = 0; peer < members; peer++)
        {
            final List<RecordingRowWriteVerbs.Post> posts = verbs.postsTo(peer);
            if (peer == myRank)
            {
                assertThat(posts).isEmpty();
                continue;
            }
            final List<String> actual = new ArrayList<>();
            int sinceSignal = 0;
            for (final RecordingRowWriteVerbs.Post post : posts)
            {
                assertThat(post.outstandingAfterPost()).isLessThanOrEqualTo(depth);
                sinceSignal = post.signaled() ? 0 : sinceSignal + 1;
                assertThat(sinceSignal).isLessThan(signalEvery);
                actual.add(post.inline()
                    ? "inline " + post.rowOffset() + " = " + Arrays.toString(post.values())
                    : "write " + post.rowOffset());
            }
            assertThat(actual).containsExactlyElementsOf(expected);
        }
    }
}
