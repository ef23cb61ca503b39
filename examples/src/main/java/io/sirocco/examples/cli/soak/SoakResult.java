package io.sirocco.examples.cli.soak;

import java.util.Locale;

/**
 * The outcome of a soak run: the counts and the long-lived processes' usage (RSS in MB, threads, open files: after
 * the warm-up, at most, at the end).
 */
public record SoakResult(SoakPlan plan, Counts counts, Usage usage, String problem)
{
    /** What happened to the samples and the processes. */
    public record Counts(long kills, long freezes, long restarts, long crashes, long sent, long received, long lost,
        long churnSent, long churnReceived, long churnLost, long disorder, long writeTimeouts)
    {
    }

    /** The long-lived processes' usage, summed over them. */
    public record Usage(ProcessSampler.Usage warm, ProcessSampler.Usage max, ProcessSampler.Usage last,
        String unbounded)
    {
    }

    /** Whether the run passed: nothing lost or out of order, no crash of a long-lived process, usage bounded. */
    public boolean passed()
    {
        return problem.isEmpty() && counts.lost() == 0 && counts.churnLost() == 0 && counts.disorder() == 0
            && counts.crashes() == 0 && usage.unbounded().isEmpty();
    }

    /** The human-readable summary. */
    public String text()
    {
        return String.format(Locale.ROOT, "soak: %d s over %s, %d processes: %d kills, %d freezes, %d other restarts," +
            " %d crashes%nsoak: long-lived publisher to long-lived subscriber: sent %d, received %d, lost %d%n" +
            "soak: churn publishers sent %d (as last reported), the long-lived subscriber received %d of them; " +
            "samples lost as seen by churn subscribers %d; out of order %d; write timeouts %d%n" +
            "soak: long-lived processes: RSS %d -> %d MB (max %d), threads %d -> %d (max %d), open files %d -> %d " +
            "(max %d)%s%s", plan.seconds(), plan.transport(), plan.processes(), counts.kills(), counts.freezes(),
            counts.restarts(), counts.crashes(), counts.sent(), counts.received(), counts.lost(), counts.churnSent(),
            counts.churnReceived(), counts.churnLost(), counts.disorder(), counts.writeTimeouts(),
            usage.warm().rssKb() / 1024, usage.last().rssKb() / 1024,
            usage.max().rssKb() / 1024, usage.warm().threads(), usage.last().threads(), usage.max().threads(),
            usage.warm().files(), usage.last().files(), usage.max().files(),
            usage.unbounded().isEmpty() ? "" : "\nsoak: not bounded: " + usage.unbounded(),
            problem.isEmpty() ? "" : "\nsoak: " + problem);
    }

    /** The JSON line of {@code --json}. */
    public String json()
    {
        return String.format(Locale.ROOT, "{\"mode\":\"soak\",\"transport\":\"%s\",\"seconds\":%d,\"processes\":%d," +
            "\"kills\":%d,\"freezes\":%d,\"restarts\":%d,\"crashes\":%d,\"sent\":%d,\"received\":%d,\"lost\":%d," +
            "\"churn_sent\":%d,\"churn_received\":%d,\"churn_lost\":%d,\"out_of_order\":%d,\"write_timeouts\":%d," +
            "\"rss_mb_after_warmup\":%d," +
            "\"rss_mb_max\":%d,\"rss_mb_last\":%d,\"threads_after_warmup\":%d,\"threads_max\":%d," +
            "\"threads_last\":%d,\"files_after_warmup\":%d,\"files_max\":%d,\"files_last\":%d,\"bounded\":%b," +
            "\"passed\":%b}", plan.transport(), plan.seconds(), plan.processes(), counts.kills(), counts.freezes(),
            counts.restarts(), counts.crashes(), counts.sent(), counts.received(), counts.lost(), counts.churnSent(),
            counts.churnReceived(), counts.churnLost(), counts.disorder(), counts.writeTimeouts(),
            usage.warm().rssKb() / 1024, usage.max().rssKb() / 1024,
            usage.last().rssKb() / 1024, usage.warm().threads(), usage.max().threads(), usage.last().threads(),
            usage.warm().files(), usage.max().files(), usage.last().files(), usage.unbounded().isEmpty(), passed());
    }
}
