package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import io.sirocco.tests.dds.proc.ChildProcess;
import io.sirocco.tests.dds.proc.OwnershipNode;
import io.sirocco.tests.dds.types.Shape;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.PolicyFactory;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.domain.DomainParticipantFactory;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.Sample;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.topic.Topic;

/**
 * DDS 1.4 §2.2.3.9/10 OWNERSHIP EXCLUSIVE failover across processes over shm: two writer processes of one instance,
 * strengths 20 and 10, and a reader in this JVM. While the strongest lives the reader gets only its samples; after it
 * is killed (SIGKILL: no unregister, no goodbye) the multicast's failure detector takes its member out, the reader
 * unmatches its writer, and the weaker writer's next sample owns the instance. The property checked: in the order the
 * reader got them, from the strongest writer's first sample on (the weaker may own the instance before it, having
 * written first), every sample of the weaker writer comes after every sample of the stronger one, and the weaker
 * one's samples do come after the kill.
 */
@Timeout(300)
class OwnershipFailoverProcessTest
{
    private static final int STRONG = 20;
    private static final int WEAK = 10;
    private static final List<String> CHILD = List.of("-Dsirocco.dds.transport=shm",
        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");

    private final List<Integer> strengths = new ArrayList<>();

    /** Takes every sample the reader has and records whose it was (by strength), in order. */
    private void drain(final DataReader<Shape> reader)
    {
        for (final Sample<Shape> sample : reader.take(new ArrayList<>()))
        {
            if (sample.getData() != null)
            {
                strengths.add(sample.getData().x / 1_000_000);
            }
        }
    }

    /** Drains the reader until the recorded strengths satisfy {@code done} (bounded at {@code seconds}). */
    private void drainUntil(final DataReader<Shape> reader, final String what, final long seconds,
        final BooleanSupplier done)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (true)
        {
            drain(reader);
            if (done.getAsBoolean())
            {
                return;
            }
            if (System.nanoTime() > deadline)
            {
                throw new AssertionError("timed out waiting for " + what + "; got " + strengths.size() + " samples");
            }
            LockSupport.parkNanos(1_000_000L);
        }
    }

    private long count(final int strength)
    {
        return strengths.stream().filter(s -> s == strength).count();
    }

    /** How many samples of the weaker writer came after the strongest writer's first. */
    private long weakSinceStrong()
    {
        final int first = strengths.indexOf(STRONG);
        return first < 0 ? 0 : strengths.subList(first, strengths.size()).stream().filter(s -> s == WEAK).count();
    }

    @Test
    void killingTheStrongestWriterHandsTheInstanceToTheNextStrongest() throws Exception
    {
        final String domain = String.valueOf(Dds.newDomain());
        final ServiceEnvironment env = DdsTransport.SHM.environment();
        final PolicyFactory pf = PolicyFactory.getPolicyFactory(env);
        final DomainParticipant participant = DomainParticipantFactory.getInstance(env)
            .createParticipant(Integer.parseInt(domain));
        try (ChildProcess strong = new ChildProcess("strong", OwnershipNode.class, CHILD, domain,
                String.valueOf(STRONG));
            ChildProcess weak = new ChildProcess("weak", OwnershipNode.class, CHILD, domain, String.valueOf(WEAK)))
        {
            final Topic<Shape> topic = participant.createTopic("Ownership", Shape.class);
            final Subscriber subscriber = participant.createSubscriber();
            final DataReader<Shape> reader = subscriber.createDataReader(topic, subscriber.getDefaultDataReaderQos()
                .withPolicies(pf.Reliability().withReliable(), pf.History().withKeepAll(),
                    pf.Ownership().withExclusive()));
            strong.await(line -> line.equals("MATCHED"), 120);
            weak.await(line -> line.equals("MATCHED"), 120);
            drainUntil(reader, "samples of the strongest writer", 120, () -> count(STRONG) > 0);
            // The weaker writer writes while the strongest lives: 300 samples, none of which may be taken.
            final int mark = weak.lineCount();
            weak.awaitFrom(mark, line -> line.startsWith("SENT ") &&
                Integer.parseInt(line.substring(5)) >= 300, 120);
            drainUntil(reader, "more samples of the strongest writer", 120, () -> count(STRONG) > 100);

            strong.kill();
            drainUntil(reader, "the weaker writer's samples after the strongest was killed", 120,
                () -> weakSinceStrong() >= 100);

            // Before the strongest's first sample the weaker may own the instance (it may write first); from then on
            // the order must be: the strongest's samples only, then, after the kill, the weaker's only.
            final List<Integer> sinceStrong = strengths.subList(strengths.indexOf(STRONG), strengths.size());
            final int lastStrong = sinceStrong.lastIndexOf(STRONG);
            final int firstWeak = sinceStrong.indexOf(WEAK);
            assertThat(firstWeak).as("after the strongest writer's first sample, the weaker writer's first comes " +
                "after the strongest's last (%d samples since: %d of strength %d, %d of %d)", sinceStrong.size(),
                sinceStrong.stream().filter(v -> v == STRONG).count(), STRONG,
                sinceStrong.stream().filter(v -> v == WEAK).count(), WEAK).isGreaterThan(lastStrong);
            assertThat(strengths).containsOnly(STRONG, WEAK);
        }
        finally
        {
            participant.close();
        }
    }
}
