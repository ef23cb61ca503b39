package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.sirocco.tests.RunShmRoot;
import io.sirocco.tests.dds.proc.ChildProcess;
import io.sirocco.tests.dds.proc.InconsistentTopicNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two processes over {@code shm} create topic {@code Mismatch} with two types, the second after the first's topic is
 * there: both create it (DDS 1.4 §2.2.2.2.1.5: another participant's topic is no error), both count it once in
 * InconsistentTopicStatus, and each logs exactly one WARN naming the topic, both types and the other process's
 * participant (the GUID the other logs as its own).
 */
@Timeout(300)
class InconsistentTopicProcessTest
{
    private static final Pattern WARN = Pattern.compile(" WARN .*topic 'Mismatch': participant ([0-9a-f]{16}) has "
        + "type '(\\w+)' for it, this participant ([0-9a-f]{16}) has '(\\w+)'; their writers and readers of it will "
        + "not match");

    @Test
    void bothProcessesCountItOnceAndLogOneWarn() throws Exception
    {
        final String domain = String.valueOf(Dds.newDomain());
        final Path dir = Files.createDirectories(RunShmRoot.path().resolve("inconsistent-topic-" + domain));
        final Path done = dir.resolve("done");
        final List<String> jvm = List.of("-Dsirocco.dds.transport=shm", "-Dsirocco.dds.interface=lo",
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
        try (ChildProcess first = new ChildProcess("first", InconsistentTopicNode.class, jvm, domain, "ShapeType",
            done.toString()))
        {
            first.await("CREATED"::equals, 120);
            try (ChildProcess second = new ChildProcess("second", InconsistentTopicNode.class, jvm, domain,
                "OtherShape", done.toString()))
            {
                try
                {
                    second.await(l -> l.startsWith("INCONSISTENT "), 120);
                    first.await(l -> l.startsWith("INCONSISTENT "), 120);
                    Files.createFile(done);
                    assertThat(second.awaitExit(120)).as("second's exit").isZero();
                    assertThat(first.awaitExit(120)).as("first's exit").isZero();
                    first.awaitOutputClosed(30);
                    second.awaitOutputClosed(30);
                }
                catch (final AssertionError ex)
                {
                    throw new AssertionError(ex.getMessage() + ChildProcess.tails(40, first, second), ex);
                }
                assertThat(first.lines()).as("first's status").contains("INCONSISTENT 1", "DONE 1");
                assertThat(second.lines()).as("second's status").contains("INCONSISTENT 1", "DONE 1");
                final Matcher a = onlyWarn(first, "OtherShape", "ShapeType");
                final Matcher b = onlyWarn(second, "ShapeType", "OtherShape");
                assertThat(a.group(1)).as("the remote participant first names is second's").isEqualTo(b.group(3));
                assertThat(b.group(1)).as("the remote participant second names is first's").isEqualTo(a.group(3));
            }
        }
    }

    /**
     * The process's one WARN line about the topic, with the remote type and then its own (WARNs of a loaded machine,
     * a suspected peer for one, are not this test's subject).
     */
    private static Matcher onlyWarn(final ChildProcess process, final String remoteType, final String ownType)
    {
        final List<String> warnings = process.lines().stream().filter(l -> l.contains(" WARN ")
            && l.contains("'Mismatch'")).toList();
        assertThat(warnings).as("%s's WARN lines about the topic", process).hasSize(1);
        final Matcher m = WARN.matcher(warnings.getFirst());
        assertThat(m.find()).as("%s's WARN: %s", process, warnings.getFirst()).isTrue();
        assertThat(m.group(2)).as("remote type").isEqualTo(remoteType);
        assertThat(m.group(4)).as("own type").isEqualTo(ownType);
        return m;
    }
}
