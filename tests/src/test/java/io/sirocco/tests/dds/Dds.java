package io.sirocco.tests.dds;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.PolicyFactory;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.domain.DomainParticipantFactory;

/** Test helpers: the environment (bootstrapped the standard way) and bounded waits for events. */
final class Dds
{
    static final ServiceEnvironment ENV;

    static
    {
        System.setProperty(ServiceEnvironment.IMPLEMENTATION_CLASS_NAME_PROPERTY,
            "io.sirocco.pubsub.SiroccoServiceEnvironment");
        System.setProperty("sirocco.dds.transport", "local");
        ENV = ServiceEnvironment.createInstance(Dds.class.getClassLoader());
    }

    private static final int MAX_DOMAIN = 232;
    private static int nextDomain = 100;
    private static int nextLocalDomain;

    /** Another environment with its own settings (the map given to ServiceEnvironment.createInstance). */
    static ServiceEnvironment environment(final java.util.Map<String, Object> settings)
    {
        return ServiceEnvironment.createInstance(ServiceEnvironment.IMPLEMENTATION_CLASS_NAME_PROPERTY, settings,
            Dds.class.getClassLoader());
    }

    private Dds()
    {
    }

    /** A fresh domain per test, so that tests never see each other's entities. */
    static synchronized DomainParticipant participant()
    {
        return DomainParticipantFactory.getInstance(ENV).createParticipant(newLocalDomain());
    }

    static DomainParticipant participant(final int domain)
    {
        return DomainParticipantFactory.getInstance(ENV).createParticipant(domain);
    }

    /**
     * A domain no other test of this JVM uses. Every DDS test takes its domain here, in-JVM or multi-process: the
     * multi-process tests used to derive theirs from the pid (100 + pid % 40 and the like), which for one surefire JVM
     * is the same number all run long, so their ranges overlapped each other's and this counter's; a test could then
     * join the group, registry files or stale members another test left in that domain.
     */
    static synchronized int newDomain()
    {
        final int domain = nextDomain;
        // DDS domain ids end at 232; a long run wraps to 1 (0 is the CLI's default), long after those tests closed.
        nextDomain = domain == MAX_DOMAIN ? 1 : domain + 1;
        return domain;
    }

    /**
     * A domain for a test on the in-process bus ({@code sirocco.dds.transport=local}): such a domain lives in this
     * JVM's memory only, so these come from a counter of their own and leave {@link #newDomain()}'s for the tests
     * whose domains reach shared memory or the network.
     */
    static synchronized int newLocalDomain()
    {
        final int domain = nextLocalDomain;
        nextLocalDomain = domain == MAX_DOMAIN ? 0 : domain + 1;
        return domain;
    }

    static PolicyFactory policies()
    {
        return PolicyFactory.getPolicyFactory(ENV);
    }

    /** Waits for a condition that an event will make true; fails after 30 s. */
    static void await(final String what, final BooleanSupplier condition)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() > deadline)
            {
                throw new AssertionError("timed out waiting for " + what);
            }
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L);
        }
    }
}
