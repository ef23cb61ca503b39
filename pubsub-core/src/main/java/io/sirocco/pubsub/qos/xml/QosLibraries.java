package io.sirocco.pubsub.qos.xml;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The QoS libraries of one OMG DDS-XML document ({@code <dds><qos_library name="L"><qos_profile name="P"
 * base_name="L::Base">...}), and the inheritance between their profiles: a profile's QoS of one entity kind is its
 * base profile's (recursively, {@code base_name} on the profile or on that QoS element), overridden policy by policy
 * by its own. Profiles are named {@code Library::Profile}; a {@code base_name} without a library means the same
 * library.
 *
 * <p>Concurrency: immutable after construction; any thread.
 */
final class QosLibraries
{
    /** The QoS elements a profile may hold. */
    static final Set<String> QOS_ELEMENTS = Set.of("domainparticipantfactory_qos", "domainparticipant_qos",
        "participant_qos", "topic_qos", "publisher_qos", "subscriber_qos", "datawriter_qos", "datareader_qos");

    private final String source;
    private final Map<String, XmlNode> profiles = new HashMap<>();
    private final String defaultProfile;

    QosLibraries(final XmlNode root)
    {
        this.source = root.source();
        if (!root.name().equals("dds"))
        {
            throw root.error("the root element of a QoS document is <dds>");
        }
        String marked = null;
        for (final XmlNode library : root.children())
        {
            if (!library.name().equals("qos_library"))
            {
                continue; // types, domains and applications of DDS-XML are not QoS
            }
            final String libraryName = required(library, "name");
            for (final XmlNode profile : library.children())
            {
                if (!profile.name().equals("qos_profile"))
                {
                    throw profile.error("a qos_library holds <qos_profile> elements only");
                }
                final String name = libraryName + "::" + required(profile, "name");
                if (profiles.putIfAbsent(name, profile) != null)
                {
                    throw profile.error("profile '" + name + "' is defined twice");
                }
                if ("true".equalsIgnoreCase(profile.attribute("is_default_qos")))
                {
                    marked = name;
                }
            }
        }
        this.defaultProfile = marked;
    }

    /** The profile marked {@code is_default_qos="true"}, or null. */
    String defaultProfile()
    {
        return defaultProfile;
    }

    /**
     * The policy elements of {@code qosElement} (e.g. {@code datawriter_qos}) in profile {@code profile}, inherited
     * ones first, so that a later element overrides an earlier one of the same policy.
     *
     * @throws QosXmlException naming the file, line and element of an unknown base or a cycle of bases;
     *         IllegalArgumentException for an unknown profile.
     */
    List<XmlNode> policies(final String profile, final String qosElement)
    {
        final XmlNode node = profiles.get(profile);
        if (node == null)
        {
            throw new IllegalArgumentException(source + ": no QoS profile '" + profile + "' (profiles: " +
                profiles.keySet() + "; name them 'library::profile')");
        }
        final List<XmlNode> out = new ArrayList<>();
        collect(profile, node, qosElement, new LinkedHashSet<>(), out);
        return out;
    }

    private void collect(final String name, final XmlNode profile, final String qosElement, final Set<String> seen,
        final List<XmlNode> out)
    {
        if (!seen.add(name))
        {
            throw profile.error("base_name inheritance loops: " + String.join(" -> ", seen) + " -> " +
                name);
        }
        final XmlNode own = ownQos(profile, qosElement);
        final XmlNode inheritFrom = own != null && own.attribute("base_name") != null ? own : profile;
        final String base = inheritFrom.attribute("base_name");
        if (base != null)
        {
            final String baseName = base.contains("::") ? base : library(name) + "::" + base;
            final XmlNode baseProfile = profiles.get(baseName);
            if (baseProfile == null)
            {
                throw inheritFrom.error("base_name '" + base + "' names no profile of " + source +
                    " (profiles: " + profiles.keySet() + ")");
            }
            collect(baseName, baseProfile, qosElement, seen, out);
        }
        if (own != null)
        {
            out.addAll(own.children());
        }
    }

    private static XmlNode ownQos(final XmlNode profile, final String qosElement)
    {
        XmlNode found = null;
        for (final XmlNode qos : profile.children())
        {
            if (!QOS_ELEMENTS.contains(qos.name()))
            {
                throw qos.error("not a QoS element of a profile (expected one of " +
                    QOS_ELEMENTS.stream().sorted().toList() + ")");
            }
            if (qos.name().equals(qosElement) ||
                qosElement.equals("domainparticipant_qos") && qos.name().equals("participant_qos"))
            {
                found = qos;
            }
        }
        return found;
    }

    private static String library(final String profile)
    {
        return profile.substring(0, profile.indexOf("::"));
    }

    private static String required(final XmlNode node, final String attribute)
    {
        final String value = node.attribute(attribute);
        if (value == null || value.isEmpty())
        {
            throw node.error("the attribute '" + attribute + "' is required");
        }
        return value;
    }
}
