package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import io.sirocco.examples.cli.SiroccoCli;
import io.sirocco.tests.dds.proc.ChildProcess;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

/**
 * {@code sirocco pub --with-sub} over shm, end to end and repeatedly: every run must end on its own with the
 * subscriber's JSON line, which must report samples received and none lost. This is the end-of-run hand-shake
 * (waitForAcknowledgments, writer close, the subscriber seeing the writer go, the forked subscriber's exit) that
 * used to leave about one run in three without a result. Each run publishes for 2 s; the bound covers two JVM starts, the
 * match, the drain and the leave on a loaded 2-core machine.
 */
@Timeout(180)
class PubWithSubCliTest
{
    private static final List<String> JVM = List.of("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
        "--enable-native-access=ALL-UNNAMED");

    @RepeatedTest(3)
    void pubWithSubEndsWithAResultAndLosesNothing() throws Exception
    {
        final String domain = String.valueOf(Dds.newDomain());
        try (ChildProcess pub = new ChildProcess("pub", SiroccoCli.class, JVM, "pub", "--with-sub", "--transport",
            "shm", "--size", "1024", "--seconds", "2", "--domain", domain, "--json"))
        {
            final String json = pub.await(l -> l.startsWith("{\"mode\":\"throughput\""), 150);
            assertThat(json).contains("\"transport\":\"shm\"", "\"size\":1024").containsPattern("\"lost\":0[,}]");
            final double rate = Double.parseDouble(json.replaceAll(".*\"samples_per_s\":([0-9.]+).*", "$1"));
            assertThat(rate).as("samples/s in %s", json).isPositive();
            assertThat(pub.awaitExit(30)).as("pub exit code").isZero();
        }
    }
}
