package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;

import io.sirocco.pubsub.pub.DataWriterImpl;
import io.sirocco.tests.dds.proc.ChildProcess;
import io.sirocco.tests.dds.proc.FilteredReaderNode;
import io.sirocco.tests.dds.types.Shape;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.PolicyFactory;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.domain.DomainParticipantFactory;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.pub.Publisher;
import org.omg.dds.topic.Topic;

/**
 * Writer-side content filtering between processes: this JVM writes, each reader is a child process
 * ({@link FilteredReaderNode}) over shm or tcp. While every matched reader reads a ContentFilteredTopic, a sample no
 * filter passes is not sent (the writer counts it); each reader still gets exactly what its filter passes, in the
 * writer's order. One plain reader among them, and the writer sends everything. Every filter also passes the
 * writer's end marker ({@code y = 1}), so "nothing else arrived" is checked once the marker was taken, without
 * waiting for time to pass.
 */
@Timeout(300)
class WriterSideFilterTest
{
    private static final int SAMPLES = 300;

    private static List<String> jvm(final String transport)
    {
        return List.of("-Dsirocco.dds.transport=" + transport, "-Dsirocco.dds.interface=lo",
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
    }

    @ParameterizedTest(name = "over {0}")
    @ValueSource(strings = {"shm", "tcp"})
    void samplesNoFilteredReaderWantsAreNotSent(final String transport) throws Exception
    {
        final int domain = Dds.newDomain();
        try (ChildProcess low = reader("low", transport, domain, "x < %0 OR y = 1", "10");
            ChildProcess high = reader("high", transport, domain, "x >= 200 OR y = 1"))
        {
            final long filtered = writeAll(transport, domain, 2, low, high);
            assertThat(taken(low)).as("the low reader's samples, in order").containsExactlyElementsOf(range(0, 10));
            assertThat(taken(high)).as("the high reader's samples, in order")
                .containsExactlyElementsOf(range(200, SAMPLES));
            assertThat(filtered).as("samples left out at the writer: 10..199").isEqualTo(190);
        }
    }

    @ParameterizedTest(name = "over {0}")
    @ValueSource(strings = {"shm", "tcp"})
    void onePlainReaderGetsEverySample(final String transport) throws Exception
    {
        final int domain = Dds.newDomain();
        try (ChildProcess low = reader("low", transport, domain, "x < %0 OR y = 1", "10");
            ChildProcess plain = reader("plain", transport, domain, "-"))
        {
            final long filtered = writeAll(transport, domain, 2, low, plain);
            assertThat(taken(low)).containsExactlyElementsOf(range(0, 10));
            assertThat(taken(plain)).containsExactlyElementsOf(range(0, SAMPLES));
            assertThat(filtered).as("nothing left out at the writer while a plain reader matches").isZero();
        }
    }

    private static ChildProcess reader(final String name, final String transport, final int domain,
        final String... filter) throws Exception
    {
        final String[] args = new String[filter.length + 1];
        args[0] = String.valueOf(domain);
        System.arraycopy(filter, 0, args, 1, filter.length);
        return new ChildProcess(name, FilteredReaderNode.class, jvm(transport), args);
    }

    /**
     * Writes x = 0..SAMPLES-1 then the end marker, once {@code readers} are matched, waits until each child took the
     * marker, and returns the writer's count of samples left out.
     */
    private static long writeAll(final String transport, final int domain, final int readers,
        final ChildProcess... children) throws Exception
    {
        final ServiceEnvironment env = Dds.environment(Map.of("sirocco.dds.transport", transport,
            "sirocco.dds.interface", "lo"));
        final PolicyFactory pf = PolicyFactory.getPolicyFactory(env);
        final DomainParticipant participant = DomainParticipantFactory.getInstance(env).createParticipant(domain);
        try
        {
            for (final ChildProcess child : children)
            {
                child.await(l -> l.equals("READY"), 120);
            }
            final Topic<Shape> topic = participant.createTopic("WriterSideFilter", Shape.class);
            final Publisher publisher = participant.createPublisher();
            final DataWriter<Shape> writer = publisher.createDataWriter(topic, publisher.getDefaultDataWriterQos()
                .withPolicies(pf.Reliability().withReliable().withMaxBlockingTime(60, TimeUnit.SECONDS),
                    pf.History().withKeepAll()));
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (writer.getPublicationMatchedStatus().getCurrentCount() < readers)
            {
                if (System.nanoTime() > deadline)
                {
                    throw new AssertionError("readers not matched within 120 s" + ChildProcess.tails(20, children));
                }
                LockSupport.parkNanos(5_000_000L);
            }
            for (int x = 0; x < SAMPLES; x++)
            {
                writer.write(new Shape("F", x, 0, 1));
            }
            writer.write(new Shape("F", -1, 1, 1));
            for (final ChildProcess child : children)
            {
                child.await(l -> l.equals("END"), 120);
            }
            return ((DataWriterImpl<?>)writer).samplesFilteredAtWriter();
        }
        finally
        {
            participant.close();
        }
    }

    private static List<Integer> taken(final ChildProcess child)
    {
        return child.lines().stream().takeWhile(l -> !l.equals("END")).filter(l -> l.startsWith("X "))
            .map(l -> Integer.parseInt(l.substring(2))).toList();
    }

    private static List<Integer> range(final int from, final int to)
    {
        return IntStream.range(from, to).boxed().toList();
    }
}
