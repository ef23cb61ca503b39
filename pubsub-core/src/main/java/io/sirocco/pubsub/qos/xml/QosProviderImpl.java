package io.sirocco.pubsub.qos.xml;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;

import io.sirocco.pubsub.qos.Qos;
import io.sirocco.pubsub.qos.QosMap;

import org.omg.dds.core.QosProvider;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.domain.DomainParticipantFactoryQos;
import org.omg.dds.domain.DomainParticipantQos;
import org.omg.dds.pub.DataWriterQos;
import org.omg.dds.pub.PublisherQos;
import org.omg.dds.sub.DataReaderQos;
import org.omg.dds.sub.SubscriberQos;
import org.omg.dds.topic.TopicQos;

/**
 * {@code newQosProvider(uri, profile)}: the QoS of the profiles of one OMG DDS-XML document (see {@link QosLibraries}
 * for libraries, profiles and {@code base_name} inheritance, {@link PolicyReader} for the policies). Each getter
 * starts from the entity kind's default QoS and applies the profile's policies, inherited ones first; the result is
 * an ordinary QoS object for the factory methods that take one ({@code createDataWriter(topic, qos, ...)}). The
 * getters without an argument use the profile given at creation, or the one marked {@code is_default_qos="true"}.
 *
 * <p>Concurrency: immutable after construction (the document is read and checked once); any thread.
 */
public final class QosProviderImpl extends QosProvider
{
    private final ServiceEnvironment env;
    private final QosLibraries libraries;
    private final PolicyReader reader;
    private final String profile;

    private QosProviderImpl(final ServiceEnvironment env, final QosLibraries libraries, final String profile)
    {
        this.env = env;
        this.libraries = libraries;
        this.reader = new PolicyReader(env);
        this.profile = profile != null ? profile : libraries.defaultProfile();
    }

    /**
     * Reads the document at {@code uri} (a {@code file:} URI or a path) and checks every profile in it.
     *
     * @throws QosXmlException naming the file, line and element of what is wrong in the document;
     *         IllegalArgumentException when {@code profile} names no profile or the file cannot be read.
     */
    public static QosProviderImpl load(final ServiceEnvironment env, final String uri, final String profile)
    {
        if (uri == null)
        {
            throw new IllegalArgumentException("newQosProvider: a uri of a QoS XML file is required");
        }
        final Path path = uri.startsWith("file:") ? Path.of(URI.create(uri)) : Path.of(uri);
        final XmlNode root;
        try (InputStream in = Files.newInputStream(path))
        {
            root = XmlNode.parse(in, path.getFileName().toString());
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException("newQosProvider: cannot read " + uri + ": " + ex, ex);
        }
        final QosProviderImpl provider = new QosProviderImpl(env, new QosLibraries(root), profile);
        provider.checkAll(root);
        return provider;
    }

    /** Reads every profile of every kind once, so that a bad document fails at load, not at first use. */
    private void checkAll(final XmlNode root)
    {
        for (final XmlNode library : root.children())
        {
            if (!library.name().equals("qos_library"))
            {
                continue;
            }
            for (final XmlNode p : library.children())
            {
                final String name = library.attribute("name") + "::" + p.attribute("name");
                getDomainParticipantFactoryQos(name);
                getDomainParticipantQos(name);
                getTopicQos(name);
                getPublisherQos(name);
                getSubscriberQos(name);
                getDataWriterQos(name);
                getDataReaderQos(name);
            }
        }
        if (profile != null)
        {
            libraries.policies(profile, "topic_qos");
        }
    }

    @Override
    public DomainParticipantFactoryQos getDomainParticipantFactoryQos()
    {
        return getDomainParticipantFactoryQos(defaultProfile());
    }

    @Override
    public DomainParticipantFactoryQos getDomainParticipantFactoryQos(final String id)
    {
        return apply(Qos.DomainParticipantFactoryQosImpl.defaults(env), id, "domainparticipantfactory_qos");
    }

    @Override
    public DomainParticipantQos getDomainParticipantQos()
    {
        return getDomainParticipantQos(defaultProfile());
    }

    @Override
    public DomainParticipantQos getDomainParticipantQos(final String id)
    {
        return apply(Qos.DomainParticipantQosImpl.defaults(env), id, "domainparticipant_qos");
    }

    @Override
    public TopicQos getTopicQos()
    {
        return getTopicQos(defaultProfile());
    }

    @Override
    public TopicQos getTopicQos(final String id)
    {
        return apply(Qos.TopicQosImpl.defaults(env), id, "topic_qos");
    }

    @Override
    public SubscriberQos getSubscriberQos()
    {
        return getSubscriberQos(defaultProfile());
    }

    @Override
    public SubscriberQos getSubscriberQos(final String id)
    {
        return apply(Qos.SubscriberQosImpl.defaults(env), id, "subscriber_qos");
    }

    @Override
    public PublisherQos getPublisherQos()
    {
        return getPublisherQos(defaultProfile());
    }

    @Override
    public PublisherQos getPublisherQos(final String id)
    {
        return apply(Qos.PublisherQosImpl.defaults(env), id, "publisher_qos");
    }

    @Override
    public DataReaderQos getDataReaderQos()
    {
        return getDataReaderQos(defaultProfile());
    }

    @Override
    public DataReaderQos getDataReaderQos(final String id)
    {
        return apply(Qos.DataReaderQosImpl.defaults(env), id, "datareader_qos");
    }

    @Override
    public DataWriterQos getDataWriterQos()
    {
        return getDataWriterQos(defaultProfile());
    }

    @Override
    public DataWriterQos getDataWriterQos(final String id)
    {
        return apply(Qos.DataWriterQosImpl.defaults(env), id, "datawriter_qos");
    }

    @Override
    public ServiceEnvironment getEnvironment()
    {
        return env;
    }

    private String defaultProfile()
    {
        if (profile == null)
        {
            throw new IllegalArgumentException("QosProvider: no profile was given to newQosProvider and none is " +
                "marked is_default_qos=\"true\"; pass a 'library::profile' id");
        }
        return profile;
    }

    private <Q extends QosMap<?, Q>> Q apply(final Q defaults, final String id, final String qosElement)
    {
        Q qos = defaults;
        for (final XmlNode node : libraries.policies(id, qosElement))
        {
            try
            {
                qos = qos.with(reader.read(node));
            }
            catch (final QosXmlException ex)
            {
                throw ex;
            }
            catch (final IllegalArgumentException ex)
            {
                // a policy of another entity kind (e.g. time_based_filter in a datawriter_qos)
                throw node.error(ex.getMessage() + " (in <" + qosElement + ">)");
            }
        }
        return qos;
    }

    @Override
    public String toString()
    {
        return "QosProvider(" + profile + ")";
    }
}
