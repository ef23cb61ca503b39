package io.sirocco.examples.cli;

import java.util.concurrent.Callable;

import io.sirocco.examples.cli.config.OptionValues;
import io.sirocco.examples.cli.soak.SoakPlan;
import io.sirocco.examples.cli.soak.SoakResult;
import io.sirocco.examples.cli.soak.SoakSupervisor;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code sirocco soak}: runs RELIABLE publishers and subscribers in child processes on this host for a while, kills
 * (SIGKILL) and freezes (SIGSTOP/SIGCONT) some of them periodically and restarts the killed ones, and checks that
 * the long-lived subscriber got every sample of the long-lived publisher in order, that no subscriber saw a gap or a
 * step back in any writer's stream, and that the long-lived processes' RSS, threads and open files stayed bounded.
 * Exit 0 when all of that holds, 1 otherwise.
 */
@Command(name = "soak", mixinStandardHelpOptions = true,
    description = "Churn publishers and subscribers (kill, freeze, restart) and check that nothing is lost.")
public final class SoakCommand implements Callable<Integer>
{
    @Option(names = "--minutes", defaultValue = "10", description = "how long (default ${DEFAULT-VALUE})",
        converter = OptionValues.Positive.class)
    int minutes;

    @Option(names = "--seconds", description = "how long, in seconds (instead of --minutes)",
        converter = OptionValues.Positive.class)
    Integer seconds;

    @Option(names = "--processes", defaultValue = "4", description = "node processes at any time, at least 3: one " +
        "long-lived publisher and subscriber, the rest churn (default ${DEFAULT-VALUE})",
        converter = OptionValues.Positive.class)
    int processes;

    @Option(names = "--kill-every", defaultValue = "20", paramLabel = "S", description = "SIGKILL a churn process " +
        "and start another every S seconds, 0 = never (default ${DEFAULT-VALUE})",
        converter = OptionValues.NonNegativeLong.class)
    long killEvery;

    @Option(names = "--partition-every", defaultValue = "0", paramLabel = "S", description = "cut a churn process " +
        "off (SIGSTOP, then SIGCONT after --partition-seconds) every S seconds, 0 = never (default ${DEFAULT-VALUE})",
        converter = OptionValues.NonNegativeLong.class)
    long partitionEvery;

    @Option(names = "--partition-seconds", defaultValue = "5", description = "how long a cut-off process stays " +
        "stopped (default ${DEFAULT-VALUE})", converter = OptionValues.PositiveLong.class)
    long partitionSeconds;

    @Option(names = "--transport", defaultValue = "shm", description = "shm | tcp (default ${DEFAULT-VALUE})",
        converter = SoakTransport.class)
    String transport;

    @Option(names = "--domain", description = "DDS domain id (default: 100 + this process id mod 100)",
        converter = OptionValues.DomainId.class)
    Integer domain;

    @Option(names = "--rate", defaultValue = "200", description = "samples/s per publisher (default ${DEFAULT-VALUE})",
        converter = OptionValues.PositiveLong.class)
    long rate;

    @Option(names = "--size", defaultValue = "256", description = "payload bytes (default ${DEFAULT-VALUE})",
        converter = OptionValues.PayloadBytes.class)
    int size;

    @Option(names = "--json", description = "end with one JSON line")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception
    {
        if (processes < 3)
        {
            throw new ParameterException(spec.commandLine(), "--processes: at least 3 (was " + processes + ")");
        }
        final long duration = seconds != null ? seconds : minutes * 60L;
        final int domainId = domain != null ? domain : 100 + (int)(ProcessHandle.current().pid() % 100);
        final SoakPlan plan = new SoakPlan(duration, processes, killEvery, partitionEvery, partitionSeconds,
            transport, domainId, rate, size);
        final SoakResult result = new SoakSupervisor(plan, System.out).run();
        System.out.println(result.text());
        if (json)
        {
            System.out.println(result.json());
        }
        return result.passed() ? 0 : 1;
    }

    /** {@code shm} or {@code tcp}: the transports a soak's processes on one host can meet over. */
    static final class SoakTransport implements picocli.CommandLine.ITypeConverter<String>
    {
        @Override
        public String convert(final String value)
        {
            if (!"shm".equals(value) && !"tcp".equals(value))
            {
                throw new picocli.CommandLine.TypeConversionException("'" + value + "' is not one of shm, tcp");
            }
            return value;
        }
    }
}
