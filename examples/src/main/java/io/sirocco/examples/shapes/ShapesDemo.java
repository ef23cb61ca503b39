package io.sirocco.examples.shapes;

import java.util.ArrayList;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import io.sirocco.dds.config.ServiceBootstrap;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.PolicyFactory;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.domain.DomainParticipantFactory;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.InstanceState;
import org.omg.dds.sub.Sample;
import org.omg.dds.topic.Topic;
import shapes.ShapeType;

/**
 * The classic Shapes demo on the command line: {@code ShapeType} keyed by color, on the topics Square, Circle and
 * Triangle. A publisher moves one colored shape around a 240x270 box; a subscriber prints, once a second, the last
 * position of every color (instance) and its instance state, so stopping a publisher shows NOT_ALIVE_*.
 *
 * <pre>
 * java -cp examples/target/sirocco.jar io.sirocco.examples.shapes.ShapesDemo sub Square &amp;
 * java -cp examples/target/sirocco.jar io.sirocco.examples.shapes.ShapesDemo pub Square BLUE 30
 * </pre>
 */
public final class ShapesDemo
{
    private ShapesDemo()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        if (args.length < 2)
        {
            System.err.println("usage: ShapesDemo pub <Square|Circle|Triangle> <COLOR> [seconds] | sub <shape> [seconds]");
            System.exit(2);
        }
        final ServiceEnvironment env = ServiceBootstrap.createEnvironment(ShapesDemo.class.getClassLoader());
        final DomainParticipant participant = DomainParticipantFactory.getInstance(env).createParticipant(0);
        try
        {
            final PolicyFactory pf = PolicyFactory.getPolicyFactory(env);
            final Topic<ShapeType> topic = participant.createTopic(args[1], ShapeType.class);
            if (args[0].equals("pub"))
            {
                publish(participant, pf, topic, args[2], args.length > 3 ? Integer.parseInt(args[3]) : 60);
            }
            else
            {
                subscribe(participant, pf, topic, args.length > 2 ? Integer.parseInt(args[2]) : 60);
            }
        }
        finally
        {
            participant.close();
        }
    }

    /** Moves one shape of {@code color} across the board, bouncing off its edges, 30 times a second. */
    private static void publish(final DomainParticipant participant, final PolicyFactory pf,
        final Topic<ShapeType> topic, final String color, final int seconds) throws Exception
    {
        final DataWriter<ShapeType> writer = participant.createPublisher().createDataWriter(topic,
            participant.createPublisher().getDefaultDataWriterQos().withPolicy(pf.Reliability().withReliable()));
        final ShapeType shape = new ShapeType(color, 0, 0, 30);
        int dx = 3;
        int dy = 2;
        final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < end)
        {
            shape.x += dx;
            shape.y += dy;
            if (shape.x <= 0 || shape.x >= 240)
            {
                dx = -dx;
            }
            if (shape.y <= 0 || shape.y >= 270)
            {
                dy = -dy;
            }
            writer.write(shape);
            Thread.sleep(33);
        }
    }

    /** Prints, once a second, the latest position (or state) of every color of the shape. */
    private static void subscribe(final DomainParticipant participant, final PolicyFactory pf,
        final Topic<ShapeType> topic, final int seconds) throws InterruptedException
    {
        final DataReader<ShapeType> reader = participant.createSubscriber().createDataReader(topic,
            participant.createSubscriber().getDefaultDataReaderQos().withPolicy(pf.Reliability().withReliable()));
        final Map<String, String> board = new TreeMap<>();
        for (int s = 0; s < seconds; s++)
        {
            Thread.sleep(1000);
            for (final Sample<ShapeType> sample : reader.take(new ArrayList<>()))
            {
                final ShapeType key = reader.getKeyValue(null, sample.getInstanceHandle());
                board.put(key.color, sample.getData() == null ? sample.getInstanceState().toString() :
                    String.format("(%3d,%3d) %s", sample.getData().x, sample.getData().y,
                        sample.getInstanceState() == InstanceState.ALIVE ? "" : sample.getInstanceState()));
            }
            System.out.println(topic.getName() + " " + board);
        }
    }
}
