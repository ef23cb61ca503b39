package io.sirocco.tests.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import io.sirocco.examples.cli.SiroccoCli;
import io.sirocco.tests.dds.proc.ChildProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The short form of {@code sirocco soak} (the long one is run by hand, docs/reliability.md): 40 s over shm and over
 * tcp with a churn publisher and subscriber SIGKILLed every 8 s and SIGSTOPped for 3 s every 15 s. The long-lived
 * subscriber must hold every sample of the long-lived publisher in order, no subscriber may see a gap or a step back,
 * and the command must exit 0 with its JSON line. The bound covers JVM starts and the drain on a loaded machine.
 */
@Timeout(600)
class SoakSmokeTest
{
    private static final List<String> JVM = List.of("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
        "--enable-native-access=ALL-UNNAMED");

    @Test
    void aShortSoakOverShmLosesNothing() throws Exception
    {
        soak("shm");
    }

    @Test
    void aShortSoakOverTcpLosesNothing() throws Exception
    {
        soak("tcp");
    }

    private static void soak(final String transport) throws Exception
    {
        try (ChildProcess soak = new ChildProcess("soak-" + transport, SiroccoCli.class, JVM, "soak", "--seconds",
            "40", "--processes", "5", "--kill-every", "8", "--partition-every", "15", "--partition-seconds", "3",
            "--transport", transport, "--rate", "100", "--json"))
        {
            final String json = soak.await(l -> l.startsWith("{\"mode\":\"soak\""), 480);
            final int exit = soak.awaitExit(60);
            assertThat(json).as("the soak's result (exit %d)%s", exit, ChildProcess.tails(20, soak))
                .contains("\"transport\":\"" + transport + "\"", "\"lost\":0,", "\"churn_lost\":0,",
                    "\"out_of_order\":0,", "\"crashes\":0,", "\"passed\":true")
                .containsPattern("\"kills\":[3-9],").containsPattern("\"freezes\":[1-9],");
            final long sent = field(json, "sent");
            assertThat(sent).as("samples of the long-lived publisher").isPositive();
            assertThat(field(json, "received")).as("received by the long-lived subscriber").isEqualTo(sent);
            assertThat(field(json, "churn_received")).as("samples of churn publishers received").isPositive();
            assertThat(exit).as("exit code").isZero();
        }
    }

    private static long field(final String json, final String name)
    {
        return Long.parseLong(json.replaceAll(".*\"" + name + "\":([0-9]+).*", "$1"));
    }
}
