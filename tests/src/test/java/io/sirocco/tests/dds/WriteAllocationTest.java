package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.Map;

import avionics.AirData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.PolicyFactory;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.domain.DomainParticipantFactory;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.pub.Publisher;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.topic.Topic;

/**
 * {@code DataWriter.write} on {@code shm} (claim the SMC slot, serialize into it, commit) allocates nothing per
 * sample in steady state: the writing thread's allocated bytes ({@code ThreadMXBean}) over many writes of a known
 * instance, after a warm-up that lets the JIT compile the path, stay below one byte per write (one object per write
 * would be at least 16).
 */
@Timeout(180)
class WriteAllocationTest
{
    private static final int WARM_UP = 200_000;
    private static final int MEASURED = 100_000;

    @Test
    void writeOfAKnownInstanceAllocatesNothingPerSample() throws Exception
    {
        final ServiceEnvironment env = Dds.environment(Map.of("sirocco.dds.transport", "shm"));
        final PolicyFactory pf = PolicyFactory.getPolicyFactory(env);
        final DomainParticipant participant = DomainParticipantFactory.getInstance(env)
            .createParticipant(Dds.newDomain());
        try
        {
            final Topic<AirData> topic = participant.createTopic("WriteAllocation", AirData.class);
            final Publisher publisher = participant.createPublisher();
            final DataWriter<AirData> writer = publisher.createDataWriter(topic, publisher
                .getDefaultDataWriterQos().withPolicies(pf.Reliability().withReliable()
                    .withMaxBlockingTime(30, java.util.concurrent.TimeUnit.SECONDS), pf.History().withKeepAll()));
            // KEEP_LAST 1: the reader's delivery thread replaces the cached sample, so nobody has to take. The writer
            // still waits for that thread whenever the window is full (a long wait on a loaded machine).
            final Subscriber subscriber = participant.createSubscriber();
            final DataReader<AirData> reader = subscriber.createDataReader(topic, subscriber
                .getDefaultDataReaderQos().withPolicies(pf.Reliability().withReliable(), pf.History().withKeepLast(1)));
            Dds.await("matched", () -> writer.getPublicationMatchedStatus().getCurrentCount() == 1);
            final AirData sample = new AirData((short)3, 0, 250, 0, 90, 1013, 15, 0);
            for (int i = 0; i < WARM_UP; i++)
            {
                sample.altitudeFt = i;
                writer.write(sample);
            }
            final com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
            final long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < MEASURED; i++)
            {
                sample.altitudeFt = i;
                writer.write(sample);
            }
            final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            org.slf4j.LoggerFactory.getLogger(WriteAllocationTest.class).info("write on shm: {} bytes allocated over {} " +
                "writes ({} per write)", allocated, MEASURED, allocated / (double)MEASURED);
            assertThat(allocated / (double)MEASURED).as("bytes allocated per write (%d over %d writes)", allocated,
                MEASURED).isLessThan(1.0);
            Dds.await("the last sample reached the reader", () ->
            {
                final var samples = reader.read(new java.util.ArrayList<>());
                return !samples.isEmpty() && samples.get(0).getData() != null &&
                    samples.get(0).getData().altitudeFt == MEASURED - 1;
            });
        }
        finally
        {
            participant.close();
        }
    }
}
