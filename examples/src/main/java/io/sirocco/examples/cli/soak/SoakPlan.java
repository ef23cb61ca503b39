package io.sirocco.examples.cli.soak;

/**
 * What a soak run does.
 *
 * @param seconds how long the churn runs.
 * @param processes node processes at any time: one long-lived publisher, one long-lived subscriber, the rest churn.
 * @param killEverySeconds SIGKILL a churn process (and start a replacement) this often; 0 = never.
 * @param freezeEverySeconds SIGSTOP a churn process for {@code freezeSeconds} this often; 0 = never.
 * @param freezeSeconds how long a frozen process stays stopped.
 * @param transport the DDS transport ({@code shm} or {@code tcp}).
 * @param domain the DDS domain.
 * @param rate samples a second per publisher.
 * @param size payload bytes.
 */
public record SoakPlan(long seconds, int processes, long killEverySeconds, long freezeEverySeconds,
    long freezeSeconds, String transport, int domain, long rate, int size)
{
    /** Long-lived subscribers (every publisher waits for them before its first sample). */
    int stableSubscribers()
    {
        return 1;
    }
}
