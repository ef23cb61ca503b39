package io.sirocco.tests.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.sirocco.tests.Netns;
import io.sirocco.tests.dds.proc.ChildProcess;
import io.sirocco.tests.dds.proc.RejoinNode;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A DDS domain across three emulated hosts ({@link Netns}: network namespaces on a private bridge), tcp rows,
 * discovery by static peers; publisher on host 0, subscribers on hosts 1 and 2 ({@link RejoinNode}).
 * <ul>
 *   <li>Partition: host 2's link is cut until its participant is out of the domain's group (the publisher's
 *       PublicationMatched count drops to 1, host 2's subscriber sees NOT_ALIVE_NO_WRITERS and its
 *       SubscriptionMatched drops to 0), then restored: host 2 must come back by itself, its statuses go up again,
 *       its first sample back is later than the last it took before the cut (no repeat) and it receives samples
 *       written after the restore.</li>
 *   <li>Merge: host 2 starts off the bridge (its interface up, but nothing reaches the others), so it forms a group
 *       of its own; it is put back on the bridge: the two groups
 *       merge into one (the smaller one, host 2's, leaves and joins) and the publisher on host 0 reaches host 2.</li>
 * </ul>
 * Needs root and iproute2; skipped with the reason otherwise. Every wait is bounded; the processes, namespaces and
 * directories are removed at the end.
 */
@Timeout(420)
class NetnsRejoinTest
{
    @Test
    void participantCutOffByAPartitionRejoinsWhenTheLinkIsRestored() throws Exception
    {
        final String reason = Netns.unavailableReason();
        Assumptions.assumeTrue(reason == null, reason);
        final String domain = String.valueOf(Dds.newDomain());
        final List<Path> dirs = new ArrayList<>();
        try (Netns hosts = new Netns(3))
        {
            final List<List<String>> jvm = settings(hosts, dirs);
            try (ChildProcess subB = new ChildProcess("subB", hosts.prefix(1), RejoinNode.class, jvm.get(1), "sub",
                    domain);
                 ChildProcess subC = startAfter(subB, "subC", hosts.prefix(2), jvm.get(2), "sub", domain);
                 ChildProcess pub = startAfter(subC, "pub", hosts.prefix(0), jvm.get(0), "pub", domain))
            {
                try
                {
                    pub.await(l -> l.equals("MATCHED 2"), 120);
                    subC.await(l -> l.startsWith("RECEIVED "), 60);
                    final int pubAtCut = pub.lines().size();
                    hosts.cutLink(2);
                    awaitAfter(pub, pubAtCut, "MATCHED 1", 120);
                    final long lastAtCut = number(subC.await(l -> l.startsWith("NO_WRITERS"), 120), "last");
                    subC.await(l -> l.equals("MATCHED 0"), 60);
                    subC.await(l -> l.contains("is out of the domain's group"), 60);
                    final int cutLines = subC.lines().size();
                    final long sentAtRestore = lastSent(pub);
                    final int pubAtRestore = pub.lines().size();
                    hosts.restoreLink(2);
                    awaitAfter(pub, pubAtRestore, "MATCHED 2", 180);
                    // The writer keeps what it wrote while host 2 was out (RetainedMessages), so when host 2 comes
                    // straight back its first sample is the one after the last it took (ci15). Not yet when it first
                    // forms a group of its own and merges later (ci18: ALIVE_AGAIN 1062 after 66, the kept samples
                    // re-sent into a view that listed host 2 before it was really back): an open defect of issue 23.
                    // What this test asserts is the rejoin: host 2 takes samples again, none from before the cut.
                    final String back = subC.await(l -> l.startsWith("ALIVE_AGAIN "), 120);
                    assertThat(number(back, "ALIVE_AGAIN")).as("host 2's first sample back").isGreaterThan(lastAtCut);
                    subC.await(l -> l.startsWith("RECEIVED ") && number(l, "last") > sentAtRestore + 200, 120);
                    final List<String> after = subC.lines().subList(cutLines, subC.lines().size());
                    assertThat(after).as("host 2's reader matched again").contains("MATCHED 1");
                    assertThat(subC.lines()).as("host 2 logged its rejoin, naming the domain and participant")
                        .anyMatch(l -> l.contains("domain " + domain + ": participant ")
                            && l.contains("rejoined the domain's group"));
                    assertThat(subB.lines()).as("host 1 never lost the publisher")
                        .noneMatch(l -> l.startsWith("NO_WRITERS"));
                }
                finally
                {
                    report(subC, subB, pub);
                }
            }
        }
        finally
        {
            deleteAll(dirs);
        }
    }

    @Test
    void hostThatFormedItsOwnGroupMergesIntoTheOtherWhenItsLinkComesUp() throws Exception
    {
        final String reason = Netns.unavailableReason();
        Assumptions.assumeTrue(reason == null, reason);
        final String domain = String.valueOf(60 + ((ProcessHandle.current().pid() + 25) % 50));
        final List<Path> dirs = new ArrayList<>();
        try (Netns hosts = new Netns(3))
        {
            final List<List<String>> jvm = settings(hosts, dirs);
            hosts.detachFromBridge(2);
            try (ChildProcess subC = new ChildProcess("subC", hosts.prefix(2), RejoinNode.class, jvm.get(2), "sub",
                    domain);
                 ChildProcess subB = startAfter(subC, "subB", hosts.prefix(1), jvm.get(1), "sub", domain);
                 ChildProcess pub = startAfter(subB, "pub", hosts.prefix(0), jvm.get(0), "pub", domain))
            {
                try
                {
                    subC.await(l -> l.contains("first member, formed the view"), 30);
                    pub.await(l -> l.equals("MATCHED 1"), 120);
                    subB.await(l -> l.startsWith("RECEIVED "), 60);
                    assertThat(subC.lines()).as("host 2 is alone in its own group")
                        .noneMatch(l -> l.startsWith("MATCHED"));
                    final long sentAtLinkUp = lastSent(pub);
                    hosts.attachToBridge(2);
                    subC.await(l -> l.contains("hears another group of this name"), 120);
                    pub.await(l -> l.equals("MATCHED 2"), 180);
                    subC.await(l -> l.startsWith("RECEIVED ") && number(l, "last") > sentAtLinkUp, 120);
                    subB.await(l -> l.startsWith("RECEIVED ") && number(l, "last") > sentAtLinkUp, 60);
                    assertThat(subB.lines()).as("the surviving group kept its publisher").noneMatch(
                        l -> l.startsWith("NO_WRITERS"));
                }
                finally
                {
                    report(subC, subB, pub);
                }
            }
        }
        finally
        {
            deleteAll(dirs);
        }
    }

    /** Per host: tcp rows, static peers (all three hosts), its own shm directory and host name. */
    private static List<List<String>> settings(final Netns hosts, final List<Path> dirs) throws Exception
    {
        final String peers = hosts.address(0) + "," + hosts.address(1) + "," + hosts.address(2);
        final List<List<String>> out = new ArrayList<>();
        for (int i = 0; i < 3; i++)
        {
            final Path dir = Files.createTempDirectory(ShmRoot.PATH, "sirocco-rejoin-h" + i);
            dirs.add(dir);
            // A 4 s heartbeat timeout instead of 2 s: a loaded CI run (load ~35) falsely suspected the publisher's
            // member and the surviving group's subscriber saw NO_WRITERS; what this test proves (exclusion by a cut
            // link, rejoin, merge) does not depend on detecting within 2 s, and its waits are bounded in minutes.
            out.add(List.of("-Dsirocco.dds.suspicion.ms=4000",
                "-Dsirocco.dds.transport=tcp", "-Dsirocco.dds.discovery=peers", "-Dsirocco.dds.peers=" + peers,
                "-Dsirocco.dds.interface=" + hosts.interfaceName(i), "-Dsirocco.multicast.shm.dir=" + dir,
                "-Dsirocco.multicast.host=nshost" + i, "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-Dorg.slf4j.simpleLogger.log.io.sirocco.pubsub.bus.group.GroupBus=info",
                "-Dorg.slf4j.simpleLogger.log.io.sirocco.multicast.Rejoiner=debug",
                "-Dorg.slf4j.simpleLogger.log.io.sirocco.multicast.contact=debug"));
        }
        return out;
    }

    private static ChildProcess startAfter(final ChildProcess previous, final String name, final List<String> prefix,
        final List<String> jvm, final String... args) throws Exception
    {
        previous.await(l -> l.equals("JOINED"), 90);
        return new ChildProcess(name, prefix, RejoinNode.class, jvm, args);
    }

    /** Shows what the rejoining process logged (WARN and above, and the status lines) in the test's output. */
    private static void report(final ChildProcess... processes)
    {
        for (final ChildProcess p : processes)
        {
            if (p == null)
            {
                continue;
            }
            String lastCount = "";
            for (final String l : p.lines())
            {
                if (l.startsWith("RECEIVED") || l.startsWith("SENT"))
                {
                    lastCount = l;
                }
                else if (!l.startsWith("\tat "))
                {
                    System.out.println(p + ": " + l);
                }
            }
            System.out.println(p + ": (last count line) " + lastCount);
        }
    }

    /** Waits (bounded) for a line equal to {@code text} among those printed after the first {@code from}. */
    private static void awaitAfter(final ChildProcess p, final int from, final String text, final long seconds)
    {
        p.await(l ->
        {
            final List<String> now = p.lines();
            return now.subList(Math.min(from, now.size()), now.size()).contains(text);
        }, seconds);
    }

    private static long lastSent(final ChildProcess pub)
    {
        final String line = pub.await(l -> l.startsWith("SENT "), 30);
        long last = number(line, "SENT");
        for (final String l : pub.lines())
        {
            if (l.startsWith("SENT "))
            {
                last = Math.max(last, number(l, "SENT"));
            }
        }
        return last;
    }

    private static long number(final String line, final String word)
    {
        return KillScenario.number(line, word);
    }

    private static void deleteAll(final List<Path> dirs)
    {
        for (final Path dir : dirs)
        {
            MultiProcessTcpPeersTest.deleteTree(dir);
        }
    }
}
