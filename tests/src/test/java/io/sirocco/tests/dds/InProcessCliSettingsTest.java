package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.TreeMap;

import io.sirocco.tests.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A {@code sirocco} DDS command run inside a bigger JVM (the tests run {@code ls} and {@code spy} in theirs) keeps its
 * settings to its own participant: the JVM's {@code sirocco.*} system properties are as it found them. The perf
 * commands once set {@code sirocco.dds.transport} and {@code sirocco.dds.listener.inline=true} as system properties,
 * so every participant made later in the JVM ran its listeners on the offering thread: BestEffortAccountingTest's
 * writer then ran its own held listener and hung (a CI failure when it ran after InspectCliTest).
 */
@Timeout(120)
class InProcessCliSettingsTest
{
    @Test
    void aDdsCommandLeavesTheJvmsSiroccoPropertiesAsItFoundThem()
    {
        final String domain = String.valueOf(Dds.newLocalDomain()); // Dds's class set its defaults first
        final Map<String, String> before = siroccoProperties();

        final CliRun ls = CliRun.execute("ls", "--transport", "local", "--domain", domain, "--wait", "1");

        assertThat(ls.exit()).as("ls exit; output:%n%s", ls.text()).isZero();
        assertThat(ls.text()).as("ls ran its session").contains("domain " + domain + " over local:");
        assertThat(siroccoProperties()).as("sirocco.* system properties after `sirocco ls`").isEqualTo(before);
    }

    private static Map<String, String> siroccoProperties()
    {
        final Map<String, String> found = new TreeMap<>();
        for (final String key : System.getProperties().stringPropertyNames())
        {
            if (key.startsWith("sirocco."))
            {
                found.put(key, System.getProperty(key));
            }
        }
        return found;
    }
}
