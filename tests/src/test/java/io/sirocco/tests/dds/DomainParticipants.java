package io.sirocco.tests.dds;

import java.util.ArrayList;
import java.util.List;

import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.domain.DomainParticipantFactory;

/** The participants an in-JVM test creates in a domain of its own ({@link Dds#newDomain()}); closes them all. */
final class DomainParticipants implements AutoCloseable
{
    private final ServiceEnvironment env;
    private final int domain = Dds.newDomain();
    private final List<DomainParticipant> created = new ArrayList<>();

    DomainParticipants(final ServiceEnvironment env)
    {
        this.env = env;
    }

    /** One more participant of the test's domain. */
    DomainParticipant create()
    {
        final DomainParticipant p = DomainParticipantFactory.getInstance(env).createParticipant(domain);
        created.add(p);
        return p;
    }

    @Override
    public void close()
    {
        for (final DomainParticipant p : created)
        {
            p.close();
        }
    }
}
