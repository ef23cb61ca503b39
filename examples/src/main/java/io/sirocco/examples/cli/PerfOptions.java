package io.sirocco.examples.cli;

import java.util.ArrayList;
import java.util.List;

import io.sirocco.examples.cli.config.OptionValues;
import io.sirocco.examples.cli.perf.PerfSession;
import picocli.CommandLine.Option;

/**
 * The options every DDS perf command ({@code ping}, {@code pong}, {@code pub}, {@code sub}) shares, mixed into each
 * ({@code @Mixin}): which transport and domain its participant joins. A command that forks its partner passes them on
 * ({@link #partnerArgs}) so both ends meet.
 */
final class PerfOptions
{
    @Option(names = "--transport", defaultValue = "shm",
        description = "shm | tcp | mixed | local | auto (default ${DEFAULT-VALUE})",
        converter = OptionValues.DdsTransport.class)
    String transport;

    @Option(names = "--domain", defaultValue = "0", description = "DDS domain id (default ${DEFAULT-VALUE})",
        converter = OptionValues.DomainId.class)
    int domain;

    /** A participant on this transport and domain, with the perf commands' settings (PerfSession). */
    PerfSession session()
    {
        return new PerfSession(transport, domain);
    }

    /** The command line of the partner command, on the same transport and domain, followed by more. */
    List<String> partnerArgs(final String command, final String... more)
    {
        final List<String> args = new ArrayList<>(List.of(command, "--transport", transport, "--domain",
            String.valueOf(domain)));
        args.addAll(List.of(more));
        return args;
    }
}
