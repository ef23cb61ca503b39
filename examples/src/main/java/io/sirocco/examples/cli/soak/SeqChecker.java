package io.sirocco.examples.cli.soak;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A subscriber's account of what it received, per writer: each writer's {@code seq} must go up by exactly one
 * (a jump is a gap: lost samples; a step back or a repeat is disorder). Writers with an id below
 * {@link #CHURN_ID_BASE} are the long-lived ones: their first sample must be 1 and their counts are reported by id.
 * Used by one thread only.
 */
final class SeqChecker
{
    /** Ids from here on are churn writers, killed and restarted; below it, the long-lived writers. */
    static final long CHURN_ID_BASE = 1000;

    private final Map<Long, long[]> writers = new HashMap<>();
    private long received;
    private long gaps;
    private long disorder;
    private long badStarts;

    void accept(final long writer, final long seq)
    {
        received++;
        final long[] state = writers.get(writer);
        if (state == null)
        {
            // {count, first, last}
            writers.put(writer, new long[] {1, seq, seq});
            if (writer < CHURN_ID_BASE && seq != 1)
            {
                badStarts++;
            }
            return;
        }
        state[0]++;
        if (seq == state[2] + 1)
        {
            state[2] = seq;
        }
        else if (seq > state[2] + 1)
        {
            gaps += seq - state[2] - 1;
            state[2] = seq;
        }
        else
        {
            disorder++;
        }
    }

    /**
     * {@code STAT received gaps disorder badStarts id:count:last,...} (the long-lived writers only; {@code -} when
     * none yet).
     */
    String statLine()
    {
        final StringBuilder line = new StringBuilder("STAT ").append(received).append(' ').append(gaps).append(' ')
            .append(disorder).append(' ').append(badStarts).append(' ');
        final Map<Long, long[]> stable = new TreeMap<>();
        writers.forEach((id, state) ->
        {
            if (id < CHURN_ID_BASE)
            {
                stable.put(id, state);
            }
        });
        if (stable.isEmpty())
        {
            line.append('-');
        }
        String sep = "";
        for (final Map.Entry<Long, long[]> e : stable.entrySet())
        {
            line.append(sep).append(e.getKey()).append(':').append(e.getValue()[0]).append(':')
                .append(e.getValue()[2]);
            sep = ",";
        }
        return line.toString();
    }
}
