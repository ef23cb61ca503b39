package io.sirocco.tests.rtps;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.sirocco.examples.cli.SiroccoCli;
import io.sirocco.tests.Closer;
import io.sirocco.tests.dds.proc.ChildProcess;

/**
 * The CLI against an unmodified Cyclone DDS {@code ddsperf} on loopback: {@code sirocco ping --rtps} measures round
 * trips with {@code ddsperf pong}, and {@code ddsperf ping -Qminmatch:1 -Qinitwait:90 -Qroundtrips:500} exits 0 against
 * {@code sirocco pong --rtps} (ddsperf's own verdict: our endpoints matched and it counted the round trips). Each
 * side is its own process. Skipped, with the reason, where ddsperf is not installed.
 */
@Timeout(300)
class RtpsCliDdsperfTest
{
    private static final List<String> LOOPBACK = List.of("-Dsirocco.dds.interface=lo");

    @RegisterExtension
    final Closer closer = new Closer();

    @TempDir
    Path dir;

    private Path ddsperf;

    @BeforeEach
    void needsDdsperf()
    {
        ddsperf = Ddsperf.require();
    }

    @Test
    void siroccoPingRtpsAgainstDdsperfPong() throws Exception
    {
        final int domain = Ddsperf.randomDomain();
        closer.add(Ddsperf.start(ddsperf, dir, domain, "pong"));
        try (ChildProcess ping = new ChildProcess("ping", SiroccoCli.class, LOOPBACK, "ping", "--rtps", "--domain",
            Integer.toString(domain), "--size", "12", "--warmup", "1", "--seconds", "3"))
        {
            final String result = ping.await(l -> l.startsWith("ping --rtps: ") && l.contains("round trips"), 180);
            System.out.println(result);
            assertThat(result).as("%s", ChildProcess.tails(20, ping)).matches("ping --rtps: [1-9]\\d* round trips.*");
            assertThat(ping.awaitExit(60)).isZero();
        }
    }

    @Test
    void ddsperfPingAgainstSiroccoPongRtps() throws Exception
    {
        final int domain = Ddsperf.randomDomain();
        try (ChildProcess pong = new ChildProcess("pong", SiroccoCli.class, LOOPBACK, "pong", "--rtps", "--domain",
            Integer.toString(domain), "--seconds", "200"))
        {
            pong.await(l -> l.startsWith("pong --rtps: answering"), 120);
            // the run's 5 s start once our endpoints matched (-Qinitwait), however long discovery takes under load
            final Ddsperf ping = closer.add(Ddsperf.start(ddsperf, dir, domain, "-D", "5", "-Qminmatch:1",
                "-Qinitwait:90", "-Qroundtrips:500", "ping"));
            final int status = ping.awaitExit(TimeUnit.SECONDS.toNanos(150));
            final String output = ping.output();
            System.out.println("ddsperf ping printed:\n" + output);
            assertThat(output).doesNotContain("failed to match");
            assertThat(status).as("ddsperf's verdict; it printed:%n%s", output).isZero();
        }
    }
}
