package io.sirocco.pubsub.qos.xml;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.sirocco.pubsub.SiroccoServiceEnvironment;
import io.sirocco.pubsub.qos.Qos;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.omg.dds.core.QosProvider;
import org.omg.dds.core.policy.DestinationOrder;
import org.omg.dds.core.policy.Durability;
import org.omg.dds.core.policy.History;
import org.omg.dds.core.policy.Liveliness;
import org.omg.dds.core.policy.Presentation;
import org.omg.dds.core.policy.Reliability;
import org.omg.dds.pub.DataWriterQos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * newQosProvider on OMG DDS-XML documents: policies as written, base_name inheritance (on the profile, on one QoS
 * element, across libraries, several levels deep), the default profile, and errors that name the file, the line and
 * the element.
 */
class QosProviderTest
{
    private static final String DOC = """
        <?xml version="1.0" encoding="UTF-8"?>
        <dds xmlns="http://www.omg.org/spec/DDS-XML">
          <qos_library name="Base">
            <qos_profile name="Reliable">
              <datawriter_qos>
                <reliability>
                  <kind>RELIABLE_RELIABILITY_QOS</kind>
                  <max_blocking_time><sec>2</sec><nanosec>500000000</nanosec></max_blocking_time>
                </reliability>
                <history><kind>KEEP_LAST_HISTORY_QOS</kind><depth>5</depth></history>
                <durability><kind>TRANSIENT_LOCAL_DURABILITY_QOS</kind></durability>
              </datawriter_qos>
              <datareader_qos>
                <reliability><kind>RELIABLE_RELIABILITY_QOS</kind></reliability>
              </datareader_qos>
            </qos_profile>
          </qos_library>
          <qos_library name="App">
            <qos_profile name="Sensor" base_name="Base::Reliable" is_default_qos="true">
              <datawriter_qos>
                <history><kind>KEEP_ALL_HISTORY_QOS</kind></history>
                <deadline><period><sec>1</sec><nanosec>0</nanosec></period></deadline>
                <liveliness>
                  <kind>MANUAL_BY_TOPIC_LIVELINESS_QOS</kind>
                  <lease_duration><sec>DURATION_INFINITY</sec><nanosec>DURATION_INFINITY</nanosec></lease_duration>
                </liveliness>
                <resource_limits><max_samples>LENGTH_UNLIMITED</max_samples><max_instances>10</max_instances>
                </resource_limits>
              </datawriter_qos>
              <publisher_qos>
                <partition><name><element>cockpit</element><element>cabin</element></name></partition>
                <presentation><access_scope>TOPIC_PRESENTATION_QOS</access_scope>
                  <coherent_access>true</coherent_access></presentation>
              </publisher_qos>
            </qos_profile>
            <qos_profile name="Fused" base_name="Sensor">
              <datareader_qos base_name="Base::Reliable">
                <destination_order><kind>BY_SOURCE_TIMESTAMP_DESTINATIONORDER_QOS</kind></destination_order>
                <time_based_filter><minimum_separation><sec>0</sec><nanosec>100000000</nanosec>
                </minimum_separation></time_based_filter>
              </datareader_qos>
            </qos_profile>
          </qos_library>
        </dds>
        """;

    private final SiroccoServiceEnvironment env = new SiroccoServiceEnvironment();

    @TempDir
    Path dir;

    private Path write(final String name, final String text) throws IOException
    {
        final Path file = dir.resolve(name);
        Files.writeString(file, text);
        return file;
    }

    private QosProvider provider(final String text, final String profile) throws IOException
    {
        return env.getSPI().newQosProvider(write("qos.xml", text).toString(), profile);
    }

    @Test
    void aProfileHasItsOwnPoliciesOverItsBasesAndTheRestAtTheirDefaults() throws IOException
    {
        final DataWriterQos qos = provider(DOC, "App::Sensor").getDataWriterQos();

        assertThat(qos.getHistory().getKind()).isEqualTo(History.Kind.KEEP_ALL);
        assertThat(qos.getReliability().getKind()).isEqualTo(Reliability.Kind.RELIABLE);
        assertThat(qos.getReliability().getMaxBlockingTime().getDuration(TimeUnit.MILLISECONDS)).isEqualTo(2500);
        assertThat(qos.getDurability().getKind()).isEqualTo(Durability.Kind.TRANSIENT_LOCAL);
        assertThat(qos.getDeadline().getPeriod().getDuration(TimeUnit.SECONDS)).isEqualTo(1);
        assertThat(qos.getLiveliness().getKind()).isEqualTo(Liveliness.Kind.MANUAL_BY_TOPIC);
        assertThat(qos.getLiveliness().getLeaseDuration().isInfinite()).isTrue();
        assertThat(qos.getResourceLimits().getMaxSamples()).isEqualTo(-1);
        assertThat(qos.getResourceLimits().getMaxInstances()).isEqualTo(10);
        final DataWriterQos defaults = Qos.DataWriterQosImpl.defaults(env);
        assertThat(qos.getOwnership()).isEqualTo(defaults.getOwnership());
        assertThat(qos.getLifespan()).isEqualTo(defaults.getLifespan());
    }

    @Test
    void theBaseProfileKeepsItsOwnValues() throws IOException
    {
        final DataWriterQos qos = provider(DOC, null).getDataWriterQos("Base::Reliable");

        assertThat(qos.getHistory().getKind()).isEqualTo(History.Kind.KEEP_LAST);
        assertThat(qos.getHistory().getDepth()).isEqualTo(5);
        assertThat(qos.getDeadline().getPeriod().isInfinite()).isTrue();
    }

    @Test
    void groupPoliciesAndTheProfileMarkedDefault() throws IOException
    {
        final QosProvider provider = provider(DOC, null);

        assertThat(provider.getPublisherQos().getPartition().getName()).containsExactlyInAnyOrder("cockpit", "cabin");
        assertThat(provider.getPublisherQos().getPresentation().getAccessScope())
            .isEqualTo(Presentation.AccessScopeKind.TOPIC);
        assertThat(provider.getPublisherQos().getPresentation().isCoherentAccess()).isTrue();
        assertThat(provider.getDataWriterQos().getHistory().getKind()).isEqualTo(History.Kind.KEEP_ALL);
    }

    @Test
    void aQosElementsBaseNameOverridesItsProfilesAndInheritanceGoesSeveralLevels() throws IOException
    {
        final QosProvider provider = provider(DOC, "App::Fused");

        final Qos.DataReaderQosImpl reader = (Qos.DataReaderQosImpl)provider.getDataReaderQos();
        assertThat(reader.getReliability().getKind()).isEqualTo(Reliability.Kind.RELIABLE);
        assertThat(reader.getDestinationOrder().getKind()).isEqualTo(DestinationOrder.Kind.BY_SOURCE_TIMESTAMP);
        assertThat(reader.getTimeBasedFilter().getMinimumSeparation().getDuration(TimeUnit.MILLISECONDS))
            .isEqualTo(100);
        // Fused -> Sensor -> Base::Reliable for the writer
        assertThat(provider.getDataWriterQos().getHistory().getKind()).isEqualTo(History.Kind.KEEP_ALL);
        assertThat(provider.getDataWriterQos().getDurability().getKind()).isEqualTo(Durability.Kind.TRANSIENT_LOCAL);
    }

    @Test
    void aBadValueNamesTheFileTheLineAndTheElement() throws IOException
    {
        final String bad = DOC.replace("<kind>KEEP_ALL_HISTORY_QOS</kind>", "<kind>KEEP_SOME_HISTORY_QOS</kind>");
        final int line = lineOf(bad, "KEEP_SOME_HISTORY_QOS");

        assertThatThrownBy(() -> provider(bad, "App::Sensor"))
            .isInstanceOf(QosXmlException.class)
            .hasMessageStartingWith("qos.xml:" + line + ": <kind>: unknown value 'KEEP_SOME_HISTORY_QOS'");
    }

    @Test
    void anUnknownPolicyAndAPolicyOfAnotherEntityKindAreNamed() throws IOException
    {
        final String unknown = DOC.replace("<durability>", "<durabilty>").replace("</durability>", "</durabilty>");
        assertThatThrownBy(() -> provider(unknown, null))
            .hasMessageStartingWith("qos.xml:" + lineOf(unknown, "<durabilty>") + ": <durabilty>: unknown");

        final String misplaced = DOC.replace("<history><kind>KEEP_LAST_HISTORY_QOS</kind><depth>5</depth></history>",
            "<ownership_strength><value>3</value></ownership_strength>").replace(
            "<reliability><kind>RELIABLE_RELIABILITY_QOS</kind></reliability>",
            "<ownership_strength><value>7</value></ownership_strength>");
        assertThatThrownBy(() -> provider(misplaced, null))
            .hasMessageStartingWith("qos.xml:" + lineOf(misplaced, "<value>7</value>") + ": <ownership_strength>:")
            .hasMessageContaining("datareader_qos");
    }

    @Test
    void missingBasesLoopsAndUnknownProfilesAreNamed() throws IOException
    {
        final String missing = DOC.replace("base_name=\"Sensor\"", "base_name=\"Sensr\"");
        assertThatThrownBy(() -> provider(missing, null))
            .hasMessageStartingWith("qos.xml:" + lineOf(missing, "Sensr") + ": <qos_profile>: base_name 'Sensr'");

        final String loop = DOC.replace("<qos_profile name=\"Reliable\">",
            "<qos_profile name=\"Reliable\" base_name=\"App::Fused\">");
        assertThatThrownBy(() -> provider(loop, null)).hasMessageContaining("base_name inheritance loops");

        assertThatThrownBy(() -> provider(DOC, "App::Nothing")).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("no QoS profile 'App::Nothing'");
    }

    @Test
    void malformedXmlNamesTheLine() throws IOException
    {
        final String broken = DOC.replaceFirst("</qos_profile>", "</qos_profil>");
        assertThatThrownBy(() -> provider(broken, null)).isInstanceOf(QosXmlException.class)
            .hasMessageStartingWith("qos.xml:" + lineOf(broken, "</qos_profil>") + ": not well-formed XML");
    }

    @Test
    void aFileUriWorksAndAMissingFileIsNamed() throws IOException
    {
        final Path file = write("profiles.xml", DOC);
        assertThat(env.getSPI().newQosProvider(file.toUri().toString(), "App::Sensor").getDataWriterQos()
            .getHistory().getKind()).isEqualTo(History.Kind.KEEP_ALL);
        assertThatThrownBy(() -> env.getSPI().newQosProvider(dir.resolve("none.xml").toString(), null))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("none.xml");
    }

    private static int lineOf(final String text, final String needle)
    {
        final List<String> lines = text.lines().toList();
        for (int i = 0; i < lines.size(); i++)
        {
            if (lines.get(i).contains(needle))
            {
                return i + 1;
            }
        }
        throw new AssertionError(needle);
    }
}
