package io.sirocco.examples.cli.config;

/**
 * The {@code sirocco} tool's exit codes, one meaning each across all commands, so that a script can tell a job that
 * ran clean from one that ran but lost data or lost its group (README, "The sirocco tool").
 */
public final class ExitCodes
{
    /** The job ran and, where it can tell, nothing was lost. */
    public static final int OK = 0;
    /** The job itself failed (an exception, a partner that did not end, a bad result). */
    public static final int FAILURE = 1;
    /** Bad usage: one line saying what is wrong, before anything started. */
    public static final int USAGE = 2;
    /** Something the job needs is not there ({@code rdma-info}: no RDMA device). */
    public static final int UNAVAILABLE = 3;
    /** No partner matched within 60 s ({@code ping}: no pong; {@code pub}: no subscriber). */
    public static final int NO_PARTNER = 4;
    /** The job ran but samples were lost ({@code sub}, {@code pub --with-sub}: "lost" above 0). */
    public static final int SAMPLES_LOST = 5;
    /**
     * The domain's group excluded this process during the run (it was suspected: paused, starved of CPU, or cut off
     * from the others), so what it measured or echoed is not the whole run. Takes precedence over
     * {@link #SAMPLES_LOST}: the exclusion is why samples were lost.
     */
    public static final int EXCLUDED = 6;

    private ExitCodes()
    {
    }

    /** The code of a job that ran to its end: {@link #EXCLUDED}, else {@link #SAMPLES_LOST}, else {@link #OK}. */
    public static int ofRun(final int exclusions, final long lost)
    {
        if (exclusions > 0)
        {
            return EXCLUDED;
        }
        return lost > 0 ? SAMPLES_LOST : OK;
    }
}
