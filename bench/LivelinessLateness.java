import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import hello.HelloMsg;
import io.sirocco.dds.config.ServiceBootstrap;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.event.LivelinessChangedEvent;
import org.omg.dds.core.event.LivelinessLostEvent;
import org.omg.dds.core.policy.PolicyFactory;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.domain.DomainParticipantFactory;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.pub.DataWriterAdapter;
import org.omg.dds.pub.Publisher;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.DataReaderAdapter;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.topic.Topic;

/**
 * The lateness of LIVELINESS loss: a MANUAL_BY_TOPIC writer with lease L writes once and stops; the writer's
 * LivelinessLost listener and a matched reader's LivelinessChanged listener (alive -> not alive) note when they run.
 * Lateness = listener time - (write time + L). Rounds run one after the other (one writer, one reader, same
 * participant), so each figure includes the timer wheel's tick (~1 ms) and, for the reader, the sample's delivery.
 *
 *   java -cp examples/target/sirocco.jar -Dsirocco.dds.transport=shm bench/LivelinessLateness.java ROUNDS LEASE_MS
 *
 * Ends with one JSON line: {"bench":"liveliness-lateness","transport":..,"lease_ms":..,"rounds":..,
 * "writer_p50_ms":..,"writer_p99_ms":..,"reader_p50_ms":..,"reader_p99_ms":..}
 */
public final class LivelinessLateness
{
    public static void main(final String[] args) throws Exception
    {
        final int rounds = Integer.parseInt(args[0]);
        final long leaseMs = Long.parseLong(args[1]);
        final ServiceEnvironment env = ServiceBootstrap.createEnvironment(LivelinessLateness.class.getClassLoader());
        final PolicyFactory pf = PolicyFactory.getPolicyFactory(env);
        final BlockingQueue<Long> writerLost = new ArrayBlockingQueue<>(rounds + 8);
        final BlockingQueue<Long> readerLost = new ArrayBlockingQueue<>(rounds + 8);
        final DomainParticipant participant = DomainParticipantFactory.getInstance(env).createParticipant(
            Integer.getInteger("domain", 77));
        try
        {
            final Topic<HelloMsg> topic = participant.createTopic("LivelinessLateness", HelloMsg.class);
            final Publisher publisher = participant.createPublisher();
            final DataWriter<HelloMsg> writer = publisher.createDataWriter(topic, publisher.getDefaultDataWriterQos()
                .withPolicies(pf.Reliability().withReliable(), pf.Liveliness().withManualByTopic()
                    .withLeaseDuration(leaseMs, TimeUnit.MILLISECONDS)), new DataWriterAdapter<>()
                {
                    @Override
                    public void onLivelinessLost(final LivelinessLostEvent<HelloMsg> event)
                    {
                        writerLost.add(System.nanoTime());
                    }
                }, null);
            final Subscriber subscriber = participant.createSubscriber();
            final DataReader<HelloMsg> reader = subscriber.createDataReader(topic, subscriber
                .getDefaultDataReaderQos().withPolicies(pf.Reliability().withReliable(), pf.Liveliness()
                    .withManualByTopic().withLeaseDuration(leaseMs, TimeUnit.MILLISECONDS)),
                new DataReaderAdapter<>()
                {
                    @Override
                    public void onLivelinessChanged(final LivelinessChangedEvent<HelloMsg> event)
                    {
                        if (event.getStatus().getNotAliveCountChange() > 0)
                        {
                            readerLost.add(System.nanoTime());
                        }
                    }
                }, null);
            final long matchBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (reader.getMatchedPublications().isEmpty() && System.nanoTime() < matchBy)
            {
                Thread.sleep(10);
            }
            // The lease since creation runs out first: drain that loss before the measured rounds.
            writerLost.poll(10 * leaseMs + 10_000, TimeUnit.MILLISECONDS);
            readerLost.poll(10 * leaseMs + 10_000, TimeUnit.MILLISECONDS);
            final List<Long> writerLate = new ArrayList<>();
            final List<Long> readerLate = new ArrayList<>();
            for (int i = 0; i < rounds; i++)
            {
                final long writtenNs = System.nanoTime();
                writer.write(new HelloMsg(i, "alive"));
                final long expectedNs = writtenNs + TimeUnit.MILLISECONDS.toNanos(leaseMs);
                final Long w = writerLost.poll(10 * leaseMs + 10_000, TimeUnit.MILLISECONDS);
                final Long r = readerLost.poll(10 * leaseMs + 10_000, TimeUnit.MILLISECONDS);
                if (w == null || r == null)
                {
                    throw new IllegalStateException("round " + i + ": no liveliness loss within 10 leases + 10 s");
                }
                writerLate.add(w - expectedNs);
                readerLate.add(r - expectedNs);
            }
            System.out.printf("{\"bench\":\"liveliness-lateness\",\"transport\":\"%s\",\"lease_ms\":%d,\"rounds\":%d,"
                + "\"writer_p50_ms\":%.2f,\"writer_p99_ms\":%.2f,\"reader_p50_ms\":%.2f,\"reader_p99_ms\":%.2f}%n",
                System.getProperty("sirocco.dds.transport", "default"), leaseMs, rounds, pct(writerLate, 50),
                pct(writerLate, 99), pct(readerLate, 50), pct(readerLate, 99));
        }
        finally
        {
            participant.close();
        }
    }

    private static double pct(final List<Long> nanos, final int p)
    {
        final long[] sorted = nanos.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(sorted);
        final int index = Math.min(sorted.length - 1, (int)Math.ceil(p / 100.0 * sorted.length) - 1);
        return sorted[Math.max(0, index)] / 1e6;
    }
}
