package io.sirocco.tests.multicast;

import java.util.ArrayList;
import java.util.List;

import io.sirocco.examples.cli.mcast.McastMemberParams;
import io.sirocco.examples.cli.mcast.McastMemberResult;
import io.sirocco.examples.cli.mcast.McastProcessCluster;
import io.sirocco.tests.FreePorts;
import io.sirocco.tests.RunShmRoot;

/**
 * {@link McastProcessCluster#run} for tests on this host, with two differences: tcp endpoints come from
 * {@link FreePorts} (McastProcessCluster's own come from {@code new ServerSocket(0)}, the ephemeral range, where any
 * outgoing connection can take a port before the member binds it), and every member runs with this test JVM's shm
 * root ({@link RunShmRoot}, through a {@code env JAVA_TOOL_OPTIONS=...} prefix, which execs the JVM so a SIGKILL still
 * reaches it), so its registry and tables are where the test cleans up.
 */
final class LocalMcastCluster
{
    private LocalMcastCluster()
    {
    }

    /** Runs the members; SIGKILLs the last one {@code killAtMs} after the first view (0: no kill). */
    static long run(final McastMemberParams base, final long killAtMs, final long timeoutS,
        final List<McastMemberResult> results) throws Exception
    {
        final boolean mixed = "mixed".equals(base.transport());
        final boolean tcpRows = mixed || "tcp".equals(base.transport());
        final List<String> endpoints = new ArrayList<>();
        final List<List<String>> prefixes = new ArrayList<>();
        final List<String> hosts = new ArrayList<>();
        final String toolOptions = System.getenv("JAVA_TOOL_OPTIONS");
        final String options = (toolOptions == null || toolOptions.isBlank() ? "" : toolOptions + " ") +
            RunShmRoot.jvmProperty();
        for (int i = 0; i < base.members(); i++)
        {
            endpoints.add(tcpRows ? "127.0.0.1:" + FreePorts.next() : "");
            prefixes.add(List.of("env", "JAVA_TOOL_OPTIONS=" + options));
            // mixed: the first half of the members stand for one host, the rest for another (as McastProcessCluster).
            hosts.add(mixed ? base.group() + (i < (base.members() + 1) / 2 ? "-hostA" : "-hostB") : "");
        }
        return McastProcessCluster.runWith(base, endpoints, prefixes, hosts, killAtMs,
            procs -> procs.get(procs.size() - 1).destroyForcibly(), timeoutS, results);
    }
}
