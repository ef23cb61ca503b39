package io.sirocco.examples.cli.perf;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import org.HdrHistogram.Histogram;

/**
 * One-way latency as ddsperf reports it: RTT/2, in microseconds, per second and overall, from two HdrHistograms
 * (3 significant digits, up to 10 s) allocated once.
 */
public final class LatencyReport
{
    private final Histogram interval = new Histogram(10_000_000_000L, 3);
    private final Histogram overall = new Histogram(10_000_000_000L, 3);
    private final PrintStream out;

    public LatencyReport(final PrintStream out)
    {
        this.out = out;
    }

    /** Records one round trip; the one-way latency is half of it. */
    public void recordRoundTripNs(final long rttNs)
    {
        final long oneWayNs = Math.max(1, rttNs / 2);
        interval.recordValue(Math.min(oneWayNs, interval.getHighestTrackableValue()));
    }

    public void printHeader()
    {
        out.println("  second    p50_us    p90_us    p99_us  p99.9_us    max_us  roundtrips");
    }

    /** Prints and folds the last interval into the overall histogram. */
    public void endInterval(final int second)
    {
        out.println(String.format(Locale.ROOT, "%8d %9.2f %9.2f %9.2f %9.2f %9.2f %11d", second,
            us(interval, 50), us(interval, 90), us(interval, 99), us(interval, 99.9),
            interval.getMaxValue() / 1000.0, interval.getTotalCount()));
        overall.add(interval);
        interval.reset();
    }

    private static double us(final Histogram h, final double percentile)
    {
        return h.getValueAtPercentile(percentile) / 1000.0;
    }

    public Histogram overall()
    {
        return overall;
    }

    /** Writes the overall one-way latency as HdrHistogram's percentile distribution, in microseconds. */
    public void writePercentiles(final Path file) throws IOException
    {
        try (PrintStream to = new PrintStream(Files.newOutputStream(file), false, StandardCharsets.UTF_8))
        {
            overall.outputPercentileDistribution(to, 1000.0);
        }
    }

    public void printOverall()
    {
        out.println(String.format(Locale.ROOT, "   total %9.2f %9.2f %9.2f %9.2f %9.2f %11d", us(overall, 50),
            us(overall, 90), us(overall, 99), us(overall, 99.9), overall.getMaxValue() / 1000.0,
            overall.getTotalCount()));
    }

    public String json(final String transport, final int size)
    {
        return String.format(Locale.ROOT, "{\"mode\":\"latency\",\"transport\":\"%s\",\"size\":%d,\"p50_us\":%.2f," +
            "\"p90_us\":%.2f,\"p99_us\":%.2f,\"p999_us\":%.2f,\"max_us\":%.2f,\"roundtrips\":%d}", transport, size,
            us(overall, 50), us(overall, 90), us(overall, 99), us(overall, 99.9), overall.getMaxValue() / 1000.0,
            overall.getTotalCount());
    }
}
