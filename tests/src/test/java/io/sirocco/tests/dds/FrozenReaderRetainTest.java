package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.sirocco.tests.dds.proc.ChildProcess;
import io.sirocco.tests.dds.proc.FrozenReaderNode;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A live reader that the group excludes (its process frozen with SIGSTOP past the suspicion timeout, as a process a
 * loaded host leaves unrun) while a RELIABLE KEEP_ALL writer keeps writing, then resumed (SIGCONT): it rejoins by
 * itself and gets every sample, in order, none twice: the ones written while it was out too (issue 23: the writer
 * counted them delivered to the view and the reader never got them, 3,621 lost in a 30-minute soak). Three processes
 * ({@link FrozenReaderNode}): pub, sub and an idle third member, so that the pub's side stays a majority.
 */
@Timeout(400)
class FrozenReaderRetainTest
{
    private static final Pattern SENT = Pattern.compile("SENT (\\d+)");
    private static final Pattern RECEIVED = Pattern.compile("RECEIVED (\\d+) last (\\d+)");
    private static final Pattern FIRST = Pattern.compile("FIRST (\\d+)");
    /** Samples the pub writes while the sub is out, and after it is back, before the sub's stream is judged. */
    private static final int WHILE_OUT = 300;
    private static final int AFTER = 300;

    @ParameterizedTest
    @ValueSource(strings = {"shm", "tcp"})
    void aFrozenReaderExcludedAndBackGetsEverySampleInOrder(final String transport) throws Exception
    {
        final String domain = String.valueOf(Dds.newDomain());
        final List<String> jvm = List.of("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
            "-Dorg.slf4j.simpleLogger.log.io.sirocco.pubsub.bus.group.RetainedMessages=info",
            "--enable-native-access=ALL-UNNAMED", "-Dsirocco.dds.transport=" + transport,
            "-Dsirocco.dds.interface=lo", "-Dsirocco.dds.suspicion.ms=1000");
        try (ChildProcess idle = node("idle", jvm, domain);
             ChildProcess sub = node("sub", jvm, domain);
             ChildProcess pub = node("pub", jvm, domain))
        {
            try
            {
                sub.await(l -> RECEIVED.matcher(l).matches(), 180);
                final int mark = pub.lineCount();
                signal("STOP", sub);
                try
                {
                    pub.awaitFrom(mark, "MATCHED 0"::equals, 120);
                    final int out = lastSent(pub);
                    pub.awaitFrom(mark, l -> sent(l) >= out + WHILE_OUT, 120);
                }
                finally
                {
                    signal("CONT", sub);
                }
                final int back = pub.lineCount();
                pub.awaitFrom(back, "MATCHED 1"::equals, 180);
                final int target = lastSent(pub) + AFTER;
                sub.await(l -> received(l) >= target, 180);
            }
            catch (final AssertionError ex)
            {
                throw new AssertionError(ex.getMessage() + ChildProcess.tails(40, sub, pub, idle), ex);
            }
            assertThat(pub.lines()).as("the pub re-sent what it kept for the sub's member" + ChildProcess.tails(40, pub))
                .anyMatch(l -> l.contains("is back after") && l.contains("re-sending the"));
            final List<String> lines = new ArrayList<>(sub.lines());
            assertThat(lines).as("the sub's stream" + ChildProcess.tails(40, sub, pub))
                .noneMatch(l -> l.startsWith("GAP") || l.startsWith("REPEAT"));
            final Matcher first = lines.stream().map(FIRST::matcher).filter(Matcher::matches).findFirst().orElseThrow();
            final Matcher last = lines.reversed().stream().map(RECEIVED::matcher).filter(Matcher::matches).findFirst()
                .orElseThrow();
            assertThat(Long.parseLong(last.group(1))).as("samples taken from %s to %s", first.group(1), last.group(2))
                .isEqualTo(Long.parseLong(last.group(2)) - Long.parseLong(first.group(1)) + 1);
        }
    }

    private static int sent(final String line)
    {
        final Matcher m = SENT.matcher(line);
        return m.matches() ? Integer.parseInt(m.group(1)) : -1;
    }

    private static int received(final String line)
    {
        final Matcher m = RECEIVED.matcher(line);
        return m.matches() ? Integer.parseInt(m.group(2)) : -1;
    }

    /** The pub's last {@code SENT x} (0 before the first). */
    private static int lastSent(final ChildProcess pub)
    {
        return pub.lines().stream().mapToInt(FrozenReaderRetainTest::sent).max().orElse(0);
    }

    private static ChildProcess node(final String role, final List<String> jvm, final String domain)
        throws Exception
    {
        return new ChildProcess(role, FrozenReaderNode.class, jvm, role, domain);
    }

    private static void signal(final String signal, final ChildProcess child) throws Exception
    {
        final Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(child.pid())).inheritIO().start();
        assertThat(kill.waitFor(30, TimeUnit.SECONDS)).as("kill -%s finished", signal).isTrue();
        assertThat(kill.exitValue()).as("kill -%s %s", signal, child).isZero();
    }
}
