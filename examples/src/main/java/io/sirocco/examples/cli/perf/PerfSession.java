package io.sirocco.examples.cli.perf;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import io.sirocco.examples.cli.config.CliMain;
import io.sirocco.examples.cli.config.ExitCodes;
import io.sirocco.dds.config.ServiceBootstrap;
import io.sirocco.examples.cli.config.LogLevels;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.PolicyFactory;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.domain.DomainParticipantFactory;
import org.omg.dds.pub.DataWriterQos;
import org.omg.dds.pub.Publisher;
import org.omg.dds.sub.DataReaderQos;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.topic.Topic;

/**
 * What the perf subcommands share, written against the OMG API only (but for {@link GroupExclusions}): the
 * environment (chosen by the standard bootstrap), one participant and the count of its exclusions from the group, QoS
 * builders, and a forked partner process for {@code --with-pong}/{@code --with-sub}.
 */
public final class PerfSession implements AutoCloseable
{
    public static final String PING_TOPIC = "sirocco_perf_ping";
    public static final String PONG_TOPIC = "sirocco_perf_pong";
    public static final String THROUGHPUT_TOPIC = "sirocco_perf_throughput";
    /** The setting the perf commands turn on by default (docs/configuration.md). */
    public static final String INLINE_LISTENERS = "sirocco.dds.listener.inline";

    private final ServiceEnvironment env;
    private final DomainParticipant participant;
    private final PolicyFactory policies;
    private final Publisher publisher;
    private final Subscriber subscriber;
    private final GroupExclusions exclusions;

    public PerfSession(final String transport, final int domain)
    {
        // This session's settings go to its own environment, never to system properties: a command run inside a
        // bigger JVM (the tests run `ls` and `spy` in theirs) must not change the participants made after it.
        final Map<String, Object> settings = new HashMap<>();
        settings.put("sirocco.dds.transport", transport);
        if (System.getProperty(INLINE_LISTENERS) == null && System.getenv("SIROCCO_DDS_LISTENER_INLINE") == null)
        {
            // ddsperf answers from its listener: run the perf listeners on the predicate thread unless told otherwise.
            settings.put(INLINE_LISTENERS, "true");
        }
        env = ServiceBootstrap.createEnvironment(PerfSession.class.getClassLoader(), settings);
        participant = DomainParticipantFactory.getInstance(env).createParticipant(domain);
        exclusions = GroupExclusions.watch(participant);
        policies = PolicyFactory.getPolicyFactory(env);
        publisher = participant.createPublisher();
        subscriber = participant.createSubscriber();
    }

    public DomainParticipant participant()
    {
        return participant;
    }

    /** The perf topic of this name ({@link #PING_TOPIC}, ...), typed with the perf commands' one sample type. */
    public Topic<sirocco.perf.Sample> topic(final String name)
    {
        return participant.createTopic(name, sirocco.perf.Sample.class);
    }

    /** How often the domain's group excluded this process's participant so far (0 on the {@code local} bus). */
    public int exclusions()
    {
        return exclusions.count();
    }

    /**
     * The exit code of a job that ran to its end ({@code ExitCodes.ofRun}), after saying on stderr when this process
     * was excluded from the group during the run.
     */
    public int exitCode(final String command, final long lost)
    {
        final int excluded = exclusions();
        if (excluded > 0)
        {
            System.err.println(command + ": this process was excluded from the domain's group " + excluded
                + " time(s) during the run (suspected by the others: paused, starved of CPU or cut off); what it "
                + "counted misses that time");
        }
        return ExitCodes.ofRun(excluded, lost);
    }

    public Publisher publisher()
    {
        return publisher;
    }

    public Subscriber subscriber()
    {
        return subscriber;
    }

    public DataWriterQos writerQos(final boolean reliable, final boolean keepAll)
    {
        return publisher.getDefaultDataWriterQos().withPolicies(
            reliable ? policies.Reliability().withReliable().withMaxBlockingTime(10, TimeUnit.SECONDS) :
                policies.Reliability().withBestEffort(),
            keepAll ? policies.History().withKeepAll() : policies.History().withKeepLast(1));
    }

    public DataReaderQos readerQos(final boolean reliable, final boolean keepAll)
    {
        return subscriber.getDefaultDataReaderQos().withPolicies(
            reliable ? policies.Reliability().withReliable() : policies.Reliability().withBestEffort(),
            keepAll ? policies.History().withKeepAll() : policies.History().withKeepLast(1));
    }

    /** Waits (bounded) for an event such as "matched"; false on timeout. */
    public static boolean await(final BooleanSupplier condition, final long timeoutMs)
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() > deadline)
            {
                return false;
            }
            LockSupport.parkNanos(1_000_000L);
        }
        return true;
    }

    @Override
    public void close()
    {
        participant.close();
    }

    /** A child JVM running another {@code sirocco} subcommand, its stdout collected (last line kept). */
    public static final class Child implements AutoCloseable
    {
        private final Process process;
        private final AtomicReference<String> lastLine = new AtomicReference<>("");
        private final AtomicReference<String> jsonLine = new AtomicReference<>("");
        private final Thread pump;

        public Child(final List<String> args) throws IOException
        {
            final List<String> command = new ArrayList<>();
            command.add(ProcessHandle.current().info().command().orElse("java"));
            command.add("--enable-native-access=ALL-UNNAMED");
            command.addAll(LogLevels.childJvmOptions());
            command.add("-cp");
            command.add(System.getProperty("java.class.path"));
            command.add(CliMain.CLASS_NAME);
            command.addAll(args);
            process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            pump = Thread.ofPlatform().daemon().name("sirocco-child-stdout").start(() ->
            {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8)))
                {
                    String line;
                    while ((line = in.readLine()) != null)
                    {
                        lastLine.set(line);
                        if (line.startsWith("{"))
                        {
                            jsonLine.set(line);
                        }
                    }
                }
                catch (final IOException ex)
                {
                    lastLine.compareAndSet("", "");
                }
            });
        }

        public boolean waitFor(final long timeoutMs) throws InterruptedException
        {
            final boolean done = process.waitFor(timeoutMs, TimeUnit.MILLISECONDS);
            if (done)
            {
                pump.join(2_000);
            }
            return done;
        }

        public String lastLine()
        {
            return lastLine.get();
        }

        /** The last line of the child's output that is a JSON object ("" if none yet). */
        public String jsonLine()
        {
            return jsonLine.get();
        }

        public int exitCode()
        {
            return process.exitValue();
        }

        @Override
        public void close()
        {
            if (process.isAlive())
            {
                process.destroy();
                try
                {
                    if (!process.waitFor(5, TimeUnit.SECONDS))
                    {
                        process.destroyForcibly();
                    }
                }
                catch (final InterruptedException ex)
                {
                    process.destroyForcibly();
                    Thread.currentThread().interrupt();
                }
            }
        }
    }
}
