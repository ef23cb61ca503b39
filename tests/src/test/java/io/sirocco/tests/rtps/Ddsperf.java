package io.sirocco.tests.rtps;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;

import io.sirocco.pubsub.rtps.discovery.EntityIds;
import io.sirocco.pubsub.rtps.discovery.GuidPrefix;

/**
 * Cyclone DDS's {@code ddsperf}, started by a test on loopback only: a Cyclone configuration of its own (interface
 * {@code lo}, no multicast, peer 127.0.0.1, automatic participant index) and a domain of its own, so parallel runs do
 * not meet. Its output goes to a file the test reads. {@link #close()} kills it.
 */
final class Ddsperf implements AutoCloseable
{
    private final Process process;
    private final Path output;

    private Ddsperf(final Process process, final Path output)
    {
        this.process = process;
        this.output = output;
    }

    /** The ddsperf executable on PATH, or null. */
    static Path find()
    {
        for (final String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
        {
            final Path candidate = Path.of(dir, "ddsperf");
            if (Files.isExecutable(candidate))
            {
                return candidate;
            }
        }
        return null;
    }

    /**
     * The ddsperf executable on PATH; where it is missing, the calling test is skipped (a JUnit assumption) with the
     * reason.
     */
    static Path require()
    {
        final Path executable = find();
        Assumptions.assumeTrue(executable != null,
            "ddsperf is not installed (Debian/Ubuntu: apt-get install cyclonedds-tools); RTPS interop not tested");
        return executable;
    }

    /** A domain id in 100..229, picked at random so that parallel tests do not meet. */
    static int randomDomain()
    {
        return 100 + ThreadLocalRandom.current().nextInt(130);
    }

    /** Starts {@code ddsperf -i domain args...} in {@code dir}. */
    static Ddsperf start(final Path executable, final Path dir, final int domain, final String... args)
        throws IOException
    {
        final Path config = dir.resolve("cyclonedds-lo.xml");
        Files.writeString(config, """
            <CycloneDDS><Domain id="any">
              <General><Interfaces><NetworkInterface name="lo"/></Interfaces>
                <AllowMulticast>false</AllowMulticast></General>
              <Discovery><ParticipantIndex>auto</ParticipantIndex><MaxAutoParticipantIndex>9</MaxAutoParticipantIndex>
                <Peers><Peer address="127.0.0.1"/></Peers></Discovery>
            </Domain></CycloneDDS>
            """, StandardCharsets.UTF_8);
        final Path output = dir.resolve("ddsperf-" + domain + ".log");
        final List<String> command = new ArrayList<>(List.of(executable.toString(), "-i", Integer.toString(domain)));
        command.addAll(List.of(args));
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(output.toFile());
        builder.environment().put("CYCLONEDDS_URI", config.toUri().toString());
        return new Ddsperf(builder.start(), output);
    }

    long pid()
    {
        return process.pid();
    }

    /** Everything ddsperf printed so far. */
    String output() throws IOException
    {
        return Files.readString(output, StandardCharsets.UTF_8);
    }

    /** Waits up to {@code timeoutNs} for a line containing {@code text}; true when it came. */
    boolean awaitOutput(final String text, final long timeoutNs) throws IOException, InterruptedException
    {
        final long deadline = System.nanoTime() + timeoutNs;
        while (System.nanoTime() - deadline < 0)
        {
            if (output().contains(text))
            {
                return true;
            }
            if (!process.isAlive())
            {
                return output().contains(text);
            }
            TimeUnit.MILLISECONDS.sleep(50); // polling a file: there is no event to wait for
        }
        return false;
    }

    /** Waits up to {@code timeoutNs} for ddsperf to end on its own; its exit status, or -1 if it still runs. */
    int awaitExit(final long timeoutNs) throws InterruptedException
    {
        return process.waitFor(timeoutNs, TimeUnit.NANOSECONDS) ? process.exitValue() : -1;
    }

    /**
     * Asks ddsperf to stop (SIGTERM: it ends its run as at the end of its duration) and waits up to
     * {@code timeoutNs}; its exit status, or -1 if it still runs.
     */
    int stop(final long timeoutNs) throws InterruptedException
    {
        process.destroy();
        return awaitExit(timeoutNs);
    }

    /**
     * The partition ddsperf gives the pong writers answering a participant: that participant's GUID as four
     * groups of eight hex digits joined by '_'.
     */
    static String guidPartition(final GuidPrefix prefix)
    {
        final byte[] guid = prefix.guid(EntityIds.PARTICIPANT);
        final StringBuilder s = new StringBuilder();
        for (int i = 0; i < 16; i++)
        {
            if (i > 0 && i % 4 == 0)
            {
                s.append('_');
            }
            s.append(String.format("%02x", guid[i]));
        }
        return s.toString();
    }

    /** Kills ddsperf without letting it say goodbye, so that only its lease can end it. */
    void killHard() throws InterruptedException
    {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException
    {
        killHard();
    }
}
