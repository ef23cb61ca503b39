package io.sirocco.examples.cli.mcast;

import java.io.InputStream;
import java.time.Duration;

import io.sirocco.examples.cli.config.CliSettings;

/**
 * Entry point of a member process spawned by {@code mcast-bench} and by the multi-process tests. Prints
 * {@code READY <epochMs>} once in the first view, {@code RESULT <json>} when done, then stays a member until its
 * standard input closes (so it does not disturb the others' view while they finish), and leaves.
 */
public final class McastMemberMain
{
    private McastMemberMain()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final McastMemberParams p = McastMemberParams.fromArgs(args);
        try (McastMemberRunner runner = new McastMemberRunner(p, Duration.ofSeconds(60)))
        {
            System.out.println("READY " + System.currentTimeMillis());
            System.out.flush();
            final McastMemberResult r = runner.run(Duration.ofSeconds(CliSettings.benchMemberTimeoutS()));
            System.out.println("RESULT " + r.toJson());
            System.out.flush();
            final InputStream in = System.in;
            while (in.read() >= 0)
            {
                // Wait for the parent to close our stdin.
            }
        }
        System.exit(0);
    }
}
