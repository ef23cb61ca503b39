package io.sirocco.pubsub.domain;

import java.util.Collection;
import java.util.concurrent.CopyOnWriteArrayList;

import io.sirocco.pubsub.SiroccoServiceEnvironment;
import io.sirocco.pubsub.qos.Qos.DomainParticipantFactoryQosImpl;
import io.sirocco.pubsub.qos.Qos.DomainParticipantQosImpl;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.status.Status;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.domain.DomainParticipantFactory;
import org.omg.dds.domain.DomainParticipantFactoryQos;
import org.omg.dds.domain.DomainParticipantListener;
import org.omg.dds.domain.DomainParticipantQos;

/** The participant factory of one ServiceEnvironment. */
public final class ParticipantFactoryImpl extends DomainParticipantFactory
{
    /** The domain used by {@link #createParticipant()}. */
    public static final int DEFAULT_DOMAIN = 0;

    private final SiroccoServiceEnvironment env;
    private final CopyOnWriteArrayList<ParticipantImpl> participants = new CopyOnWriteArrayList<>();
    private volatile DomainParticipantFactoryQos qos;
    private volatile DomainParticipantQos defaultParticipantQos;

    public ParticipantFactoryImpl(final SiroccoServiceEnvironment env)
    {
        this.env = env;
        this.qos = DomainParticipantFactoryQosImpl.defaults(env);
        this.defaultParticipantQos = DomainParticipantQosImpl.defaults(env);
    }

    @Override
    public DomainParticipant createParticipant()
    {
        return createParticipant(DEFAULT_DOMAIN);
    }

    @Override
    public DomainParticipant createParticipant(final int domainId)
    {
        return createParticipant(domainId, defaultParticipantQos, null, null);
    }

    @Override
    public DomainParticipant createParticipant(final int domainId, final DomainParticipantQos participantQos,
        final DomainParticipantListener listener, final Collection<Class<? extends Status>> statuses)
    {
        if (domainId < 0 || domainId > 232)
        {
            throw new IllegalArgumentException("DomainParticipantFactory: domain id " + domainId +
                " is outside 0..232");
        }
        final ParticipantImpl participant = new ParticipantImpl(env, participants::remove, domainId,
            participantQos == null ? defaultParticipantQos : participantQos, listener, statuses);
        participants.add(participant);
        if (qos.getEntityFactory().isAutoEnableCreatedEntities())
        {
            participant.enable();
        }
        return participant;
    }

    @Override
    public DomainParticipant lookupParticipant(final int domainId)
    {
        for (final ParticipantImpl participant : participants)
        {
            if (participant.getDomainId() == domainId && !participant.isClosed())
            {
                return participant;
            }
        }
        return null;
    }

    @Override
    public DomainParticipantFactoryQos getQos()
    {
        return qos;
    }

    @Override
    public void setQos(final DomainParticipantFactoryQos qos)
    {
        this.qos = qos;
    }

    @Override
    public DomainParticipantQos getDefaultParticipantQos()
    {
        return defaultParticipantQos;
    }

    @Override
    public void setDefaultParticipantQos(final DomainParticipantQos qos)
    {
        this.defaultParticipantQos = qos == null ? DomainParticipantQosImpl.defaults(env) : qos;
    }

    @Override
    public ServiceEnvironment getEnvironment()
    {
        return env;
    }
}
