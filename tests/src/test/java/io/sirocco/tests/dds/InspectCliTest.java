package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;

import io.sirocco.examples.cli.SiroccoCli;
import io.sirocco.tests.CliRun;
import io.sirocco.tests.RunShmRoot;
import io.sirocco.tests.dds.proc.ChildProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The tools that look at a live domain, over shm: {@code sirocco ls} lists a running {@code sirocco pub}'s writer
 * (topic, type, QoS) through the built-in topics, and {@code sirocco spy} prints its samples field by field, the type
 * found from the discovery data. And {@code sirocco example hello} runs the hello example's two roles to the end.
 */
@Timeout(600)
class InspectCliTest
{
    private static final List<String> JVM = List.of("--enable-native-access=ALL-UNNAMED");
    private static final String TOPIC = "sirocco_perf_throughput";

    @Test
    void lsAndSpyShowARunningPubsTopicAndSamples() throws Exception
    {
        final String domain = String.valueOf(Dds.newDomain());
        try (ChildProcess pub = new ChildProcess("pub", SiroccoCli.class, JVM, "pub", "--transport", "shm",
            "--domain", domain, "--seconds", "300", "--rate", "20", "--size", "4"))
        {
            final String writerLine = "  " + TOPIC + "  type sirocco::perf::Sample  participant ";
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
            CliRun ls;
            do
            {
                // Each ls listens 2 s; the pub may still be joining the first times.
                ls = CliRun.execute("ls", "--transport", "shm", "--domain", domain, "--wait", "2");
                assertThat(ls.exit()).as("ls exit; output:%n%s", ls.text()).isZero();
            }
            while (!ls.text().contains(writerLine) && System.nanoTime() < deadlineNs);
            assertThat(ls.text()).as("ls output").contains("writers (1):", writerLine)
                .containsPattern("participants \\(2, this one included\\)")
                .containsPattern(writerLine.strip() + " [0-9a-f]+  RELIABLE ")
                .contains("topics (1):\n  " + TOPIC + "  type sirocco::perf::Sample  ");

            final CliRun spy = CliRun.execute("spy", TOPIC, "--transport", "shm", "--domain", domain, "--count", "3",
                "--seconds", "180");
            assertThat(spy.exit()).as("spy exit; output:%n%s", spy.text()).isZero();
            assertThat(spy.text()).contains("spy: topic '" + TOPIC + "', type sirocco::perf::Sample "
                + "(sirocco.perf.Sample), RELIABLE");
            assertThat(spy.text().lines().filter(l -> l.matches(TOPIC
                + " #[123] \\{keyval=0, seq=\\d+, timestampNs=\\d+, payload=\\[0, 0, 0, 0\\]\\}")))
                .as("spy's sample lines in:%n%s", spy.text()).hasSize(3);
        }
    }

    @Test
    void exampleHelloRunsPublisherAndSubscriber() throws Exception
    {
        // The examples use domain 0: a private shm directory keeps this run apart from any other.
        final List<String> jvm = List.of("--enable-native-access=ALL-UNNAMED",
            "-Dsirocco.multicast.shm.dir=" + RunShmRoot.path().resolve("example-hello"));
        try (ChildProcess example = new ChildProcess("example", SiroccoCli.class, jvm, "example", "hello"))
        {
            assertThat(example.awaitExit(240)).as("exit; output:%n%s", example.lines()).isZero();
            example.awaitOutputClosed(30);
            assertThat(example.lines()).as("output").contains("Hello World 1", "Hello World 10");
        }
    }
}
