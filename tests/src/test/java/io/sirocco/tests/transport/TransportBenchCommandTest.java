package io.sirocco.tests.transport;

import io.sirocco.examples.cli.SiroccoCli;
import io.sirocco.tests.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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
        final CliRun run = CliRun.execute("transport-bench", "--transport", transport, "--mode", mode, "--threading",
            threading, "--size", "100", "--threads", "2", "--seconds", "0.3", "--warmup-seconds", "0.1", "--json");
        final String json = run.lastLine();
        assertThat(run.exit()).as(run.text()).isZero();
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
