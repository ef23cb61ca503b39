package io.sirocco.examples.cli.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ping --percentiles}: the file bench/compare-report.py plots is HdrHistogram's distribution, in µs. */
class LatencyReportTest
{
    @Test
    void thePercentileFileHoldsEveryRoundTripAsOneWayMicroseconds(@TempDir final Path dir) throws Exception
    {
        final LatencyReport report = new LatencyReport(new PrintStream(new ByteArrayOutputStream(), true,
            StandardCharsets.UTF_8));
        for (int i = 1; i <= 1000; i++)
        {
            report.recordRoundTripNs(i * 2_000L);   // one-way 1 µs .. 1000 µs
        }
        report.endInterval(1);
        final Path file = dir.resolve("ping.hgrm");

        report.writePercentiles(file);

        final List<double[]> rows = Files.readAllLines(file).stream()
            .map(String::trim)
            .filter(line -> !line.isEmpty() && Character.isDigit(line.charAt(0)))
            .map(line -> line.split("\\s+"))
            .map(parts -> new double[] {Double.parseDouble(parts[0]), Double.parseDouble(parts[1]),
                Double.parseDouble(parts[2])})
            .toList();
        assertThat(rows).hasSizeGreaterThan(10);
        final double[] last = rows.get(rows.size() - 1);
        assertThat(last[1]).as("the last percentile").isEqualTo(1.0);
        assertThat(last[2]).as("the total count").isEqualTo(1000);
        assertThat(last[0]).as("the maximum, µs").isBetween(999.0, 1001.0);
        final double[] median = rows.stream().filter(r -> r[1] >= 0.5).findFirst().orElseThrow();
        assertThat(median[0]).as("the median, µs").isBetween(499.0, 501.0);
        assertThat(rows).extracting(r -> r[0]).isSorted();
    }
}
