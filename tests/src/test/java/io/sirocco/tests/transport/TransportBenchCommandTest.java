package io.sirocco.tests.transport;

import io.sirocco.examples.cli.SiroccoCli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code sirocco transport-bench} runs (briefly) and ends with the JSON line the issue specifies. */
@Timeout(120)
class TransportBenchCommandTest
{
    @ParameterizedTest
    @CsvSource({
        "loopback, rtt, inline, rtt_p50_us",
        "loopback, throughput, dedicated, msgs_per_s",
        "tcp, rtt, inline, rtt_p99_us",
        "tcp, throughput, inline, mb_per_s"})
    void shouldEndWithOneJsonLine(final String transport, final String mode, final String threading, final String field)
    {
        final PrintStream original = System.out;
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final int exit;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try
        {
            exit = SiroccoCli.commandLine().execute("transport-bench", "--transport", transport, "--mode", mode,
                "--threading", threading, "--size", "100", "--threads", "2", "--seconds", "0.3",
                "--warmup-seconds", "0.1", "--json");
        }
        finally
        {
            System.setOut(original);
        }
        final String[] lines = out.toString(StandardCharsets.UTF_8).strip().split("\n");
        final String json = lines[lines.length - 1];
        assertThat(exit).as(out.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(json).startsWith("{").endsWith("}")
            .contains("\"transport\":\"" + transport + "\"", "\"mode\":\"" + mode + "\"", "\"size\":100",
                "\"threads\":2", "\"" + field + "\":", "\"count\":");
    }

    @Test
    void shouldRejectUnknownTransport()
    {
        assertThat(SiroccoCli.commandLine().execute("transport-bench", "--transport", "carrier-pigeon")).isEqualTo(2);
    }
}
