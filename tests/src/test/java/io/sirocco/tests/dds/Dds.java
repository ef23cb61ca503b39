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

    private static int nextDomain = 100;

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
        return DomainParticipantFactory.getInstance(ENV).createParticipant(nextDomain++);
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
        return nextDomain++;
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
