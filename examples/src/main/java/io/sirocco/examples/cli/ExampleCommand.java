package io.sirocco.examples.cli;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.sirocco.examples.avionics.AirDataDisplay;
import io.sirocco.examples.avionics.AirDataPublisher;
import io.sirocco.examples.cli.config.OptionValues;
import io.sirocco.examples.hello.HelloWorld;
import io.sirocco.examples.shapes.ShapesDemo;
import io.sirocco.transport.agent.Agents;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sirocco example hello|shapes|avionics [--pub|--sub]}: runs one of the examples (their sources are in
 * {@code examples/src/main/java/io/sirocco/examples}) on domain 0. With {@code --pub} or {@code --sub} this process
 * plays that role, so two terminals make a publisher and a subscriber; with neither it plays both, the subscriber on a
 * second thread.
 */
@Command(name = "example", mixinStandardHelpOptions = true,
    description = "Run an example (hello, shapes, avionics) on domain 0: its publisher, its subscriber, or both.")
public final class ExampleCommand implements Callable<Integer>
{
    /** The examples; lower case, as typed on the command line. */
    enum Name
    {
        hello, shapes, avionics
    }

    @Parameters(index = "0", paramLabel = "NAME", description = "hello | shapes | avionics")
    Name name;

    @Option(names = "--pub", description = "only the publisher")
    boolean pub;

    @Option(names = "--sub", description = "only the subscriber")
    boolean sub;

    @Option(names = "--seconds", defaultValue = "30", converter = OptionValues.Positive.class,
        description = "how long shapes and avionics run (default ${DEFAULT-VALUE}); hello sends 10 greetings")
    int seconds;

    @Override
    public Integer call() throws Exception
    {
        final boolean both = pub == sub;
        if (!both)
        {
            run(pub);
            return 0;
        }
        final ExecutorService subscriber = Executors.newSingleThreadExecutor(Agents.threadFactory("example-sub"));
        try
        {
            final Future<?> subscribed = subscriber.submit(() ->
            {
                run(false);
                return null;
            });
            run(true);
            subscribed.get();
            return 0;
        }
        finally
        {
            subscriber.shutdownNow();
        }
    }

    private void run(final boolean publisher) throws Exception
    {
        final String time = String.valueOf(seconds);
        switch (name)
        {
            case hello -> HelloWorld.main(publisher ? new String[] {"pub", "10"} : new String[] {"sub", "10"});
            case shapes -> ShapesDemo.main(publisher ? new String[] {"pub", "Square", "BLUE", time}
                : new String[] {"sub", "Square", time});
            case avionics ->
            {
                if (publisher)
                {
                    AirDataPublisher.main(new String[] {"7", "50", time});
                }
                else
                {
                    AirDataDisplay.main(new String[] {time});
                }
            }
        }
    }
}
