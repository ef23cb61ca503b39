package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import hello.HelloMsg;
import hello.HelloMsgTypeSupport;
import io.sirocco.dds.type.DataRepresentation;
import io.sirocco.tests.dds.types.RawBytes;
import io.sirocco.tests.dds.types.RawBytesTypeSupport;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.PolicyFactory;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.pub.Publisher;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.Sample;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.topic.Topic;
import org.omg.dds.type.TypeSupport;

/**
 * Issue 23: malformed XCDR2 samples from a peer never crash a reader. A hostile writer (a codec that sends raw bytes,
 * registered under the reader's type name) sends {@code hello::HelloMsg} samples over shm, most of them broken: random
 * bytes, cut samples, string lengths of 2^31-1 and -1, flipped bytes. Each one the type's own codec refuses is
 * dropped by the reader and counted in its SampleLost status, exactly; every one that decodes arrives, in order and
 * equal; the reader keeps working. {@code -Dsirocco.fuzz.samples=N} sends N samples (default 2,000).
 */
@Timeout(300)
class MalformedSampleTest
{
    private static final int SAMPLES = Integer.getInteger("sirocco.fuzz.samples", 2_000);

    private final ServiceEnvironment env = Dds.environment(Map.of("sirocco.dds.transport", "shm"));
    private final PolicyFactory pf = PolicyFactory.getPolicyFactory(env);
    @AutoClose
    private final DomainParticipants participants = new DomainParticipants(env);

    @Test
    void shouldDropAndCountSamplesThatDoNotDecodeAndDeliverTheRest() throws Exception
    {
        final DomainParticipant hostile = participants.create();
        final DomainParticipant victim = participants.create();
        final TypeSupport<RawBytes> raw = TypeSupport.newTypeSupport(RawBytes.class,
            HelloMsgTypeSupport.INSTANCE.typeName(), env);
        final Topic<RawBytes> rawTopic = hostile.createTopic("Malformed", raw);
        final Topic<HelloMsg> helloTopic = victim.createTopic("Malformed", HelloMsg.class);
        final Publisher publisher = hostile.createPublisher();
        final DataWriter<RawBytes> writer = publisher.createDataWriter(rawTopic, publisher.getDefaultDataWriterQos()
            .withPolicies(pf.Reliability().withReliable().withMaxBlockingTime(60, TimeUnit.SECONDS),
                pf.History().withKeepAll()));
        final Subscriber subscriber = victim.createSubscriber();
        final DataReader<HelloMsg> reader = subscriber.createDataReader(helloTopic, subscriber
            .getDefaultDataReaderQos().withPolicies(pf.Reliability().withReliable(), pf.History().withKeepAll()));
        Dds.await("matched", () -> writer.getPublicationMatchedStatus().getCurrentCount() == 1
            && reader.getSubscriptionMatchedStatus().getCurrentCount() == 1);

        final Random random = new Random(23);
        final List<HelloMsg> expected = new ArrayList<>();
        long refused = 0;
        final RawBytes sample = new RawBytes();
        for (int i = 0; i < SAMPLES; i++)
        {
            sample.bytes = i % 2 == 0 ? valid(i) : malformed(random, i);
            final HelloMsg decoded = decodeLocally(sample.bytes);
            if (decoded == null)
            {
                refused++;
            }
            else
            {
                expected.add(decoded);
            }
            writer.write(sample);
        }
        writer.waitForAcknowledgments(120, TimeUnit.SECONDS);

        final List<HelloMsg> got = new ArrayList<>();
        Dds.await(expected.size() + " decodable samples taken", () ->
        {
            for (final Sample<HelloMsg> s : reader.take(new ArrayList<>()))
            {
                if (s.getData() != null)
                {
                    got.add(new HelloMsg(s.getData()));
                }
            }
            return got.size() >= expected.size();
        });
        assertThat(refused).as("malformed samples the codec refuses").isGreaterThan(SAMPLES / 4);
        assertThat(got).containsExactlyElementsOf(expected);
        final long refusedSamples = refused;
        Dds.await("every refused sample counted as lost",
            () -> reader.getSampleLostStatus().getTotalCount() >= refusedSamples);
        assertThat(reader.getSampleLostStatus().getTotalCount()).isEqualTo(refused);
    }

    private static byte[] valid(final int i)
    {
        final HelloMsg msg = new HelloMsg(i, "message " + i);
        final DataRepresentation representation = HelloMsgTypeSupport.INSTANCE.defaultRepresentation();
        final MemorySegment out = Arena.ofAuto().allocate(
            HelloMsgTypeSupport.INSTANCE.serializedSize(msg, representation));
        final long n = HelloMsgTypeSupport.INSTANCE.serialize(msg, out, 0, representation);
        return out.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE);
    }

    /** One of the malformed kinds, in turn: random bytes, a cut sample, bad string lengths, flipped bytes. */
    private static byte[] malformed(final Random random, final int i)
    {
        final byte[] good = valid(i);
        switch ((i / 2) % 5)
        {
            case 0:
            {
                final byte[] bytes = new byte[1 + random.nextInt(64)];
                random.nextBytes(bytes);
                return bytes;
            }
            case 1:
                return java.util.Arrays.copyOf(good, 1 + random.nextInt(good.length - 1));
            case 2:
                return withStringLength(good, Integer.MAX_VALUE);
            case 3:
                return withStringLength(good, -1);
            default:
            {
                final byte[] bytes = good.clone();
                for (int k = 0; k < 3; k++)
                {
                    bytes[random.nextInt(bytes.length)] = (byte)random.nextInt(256);
                }
                return bytes;
            }
        }
    }

    /** The sample with its string's length field (after the 4-byte header and the 4-byte id) set to {@code n}. */
    private static byte[] withStringLength(final byte[] good, final int n)
    {
        final byte[] bytes = good.clone();
        MemorySegment.ofArray(bytes).set(ValueLayout.JAVA_INT_UNALIGNED, 8, n);
        return bytes;
    }

    private static HelloMsg decodeLocally(final byte[] bytes)
    {
        try
        {
            return HelloMsgTypeSupport.INSTANCE.deserialize(MemorySegment.ofArray(bytes), 0, bytes.length, null);
        }
        catch (final RuntimeException refused)
        {
            return null;
        }
    }
}
