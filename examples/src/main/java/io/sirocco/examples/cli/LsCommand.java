package io.sirocco.examples.cli;

import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import io.sirocco.examples.cli.config.OptionValues;
import io.sirocco.examples.cli.inspect.DomainListing;
import io.sirocco.examples.cli.perf.PerfSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code sirocco ls}: the participants, topics, writers and readers of a domain with their QoS, as the built-in
 * topics report them (Cyclone's {@code ddsls}). It joins the domain, listens {@code --wait} seconds for discovery,
 * prints, and leaves.
 */
@Command(name = "ls", mixinStandardHelpOptions = true,
    description = "List a domain's participants, topics, writers and readers with their QoS (built-in topics).")
public final class LsCommand implements Callable<Integer>
{
    @Mixin
    PerfOptions dds = new PerfOptions();

    @Option(names = "--wait", defaultValue = "3", converter = OptionValues.Positive.class,
        description = "seconds to listen for discovery before printing (default ${DEFAULT-VALUE})")
    int waitSeconds;

    @Override
    public Integer call() throws Exception
    {
        try (PerfSession session = dds.session())
        {
            // Discovery has no end to wait for: every member announces itself once it joined; listen for a while.
            TimeUnit.SECONDS.sleep(waitSeconds);
            System.out.println("domain " + dds.domain + " over " + dds.transport + ":");
            DomainListing.of(session.participant()).print(System.out);
            return 0;
        }
    }
}
