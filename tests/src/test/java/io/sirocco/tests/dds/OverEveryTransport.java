package io.sirocco.tests.dds;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.PolicyFactory;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.domain.DomainParticipantFactory;

/**
 * Base of the DDS conformance tests: every test of a subclass runs once per {@link DdsTransport}, in a domain of its
 * own; the participants it made here are closed after each test (the subclass's own {@code @AfterEach} runs first).
 */
@ParameterizedClass(name = "over {0}")
@EnumSource(DdsTransport.class)
abstract class OverEveryTransport
{
    protected final DdsTransport transport;
    protected final ServiceEnvironment env;
    protected final PolicyFactory pf;
    private final int domain;
    private final List<DomainParticipant> created = new ArrayList<>();

    OverEveryTransport(final DdsTransport transport)
    {
        this(transport, transport.environment());
    }

    OverEveryTransport(final DdsTransport transport, final ServiceEnvironment env)
    {
        this.transport = transport;
        this.env = env;
        this.pf = PolicyFactory.getPolicyFactory(env);
        this.domain = transport == DdsTransport.LOCAL ? Dds.newLocalDomain() : Dds.newDomain();
    }

    /** One more participant of this test's domain. */
    protected final DomainParticipant participant()
    {
        final DomainParticipant p = DomainParticipantFactory.getInstance(env).createParticipant(domain);
        created.add(p);
        return p;
    }

    protected final int domain()
    {
        return domain;
    }

    @AfterEach
    void closeParticipants()
    {
        for (final DomainParticipant p : created)
        {
            p.close();
        }
    }
}
