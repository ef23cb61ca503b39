package io.sirocco.tests.transport;

import io.sirocco.tests.FreePorts;
import io.sirocco.transport.MessagingService;
import io.sirocco.transport.NodeUnreachableException;
import io.sirocco.transport.TransportContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * A peer process killed with SIGKILL: requests pending on it fail with NodeUnreachableException naming the node
 * long before their (120 s) timeout, and after the peer restarts on the same address the next request works.
 */
@Timeout(180)
class PeerKillTest
{
    private static final int LOCAL = 1;
    private static final int PEER = 2;
    private static final long REQUEST_TIMEOUT_S = 120;

    private final List<Process> children = new ArrayList<>();
    private MessagingService local;

    @AfterEach
    void cleanUp()
    {
        children.forEach(Process::destroyForcibly);
        if (local != null)
        {
            local.close();
        }
    }

    private Process startPeer(final int port) throws IOException
    {
        final String java = ProcessHandle.current().info().command().orElse("java");
        final Process process = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", TransportPeerMain.class.getName(),
            Integer.toString(PEER), Integer.toString(port))
            .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        children.add(process);
        final BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream()));
        final CompletableFuture<String> ready = CompletableFuture.supplyAsync(() ->
        {
            try
            {
                String line;
                while ((line = out.readLine()) != null)
                {
                    if (line.equals("READY"))
                    {
                        return line;
                    }
                }
                return null;
            }
            catch (final IOException e)
            {
                return null;
            }
        });
        try
        {
            assertThat(ready.get(60, TimeUnit.SECONDS)).isEqualTo("READY");
        }
        catch (final Exception e)
        {
            fail("peer process did not start", e);
        }
        return process;
    }

    /** A port below the ephemeral range: a child or service binds it after this test chose it ({@link FreePorts}). */
    private static int freePort()
    {
        return FreePorts.next();
    }

    @Test
    void shouldFailPendingRequestsFastWhenPeerIsKilledAndReconnectAfterRestart() throws Exception
    {
        final int peerPort = freePort();
        final TransportContext context = new TransportContext().ownNodeId(LOCAL).transport("nio")
            .requestTimeoutMs(TimeUnit.SECONDS.toMillis(REQUEST_TIMEOUT_S));
        context.addressMap().put(LOCAL, "127.0.0.1", 0).put(PEER, "127.0.0.1", peerPort);
        local = MessagingService.start(context);
        EchoMessages.register(local);

        final Process first = startPeer(peerPort);
        final EchoMessages.EchoReply reply = local.requestSync(new EchoMessages.Echo().value(10), PEER, 30, TimeUnit.SECONDS);
        assertThat(reply.value).isEqualTo(11);

        final List<CompletableFuture<EchoMessages.EchoReply>> pending = new ArrayList<>();
        for (int i = 0; i < 5; i++)
        {
            pending.add(local.request(new EchoMessages.Hold().value(i), PEER, REQUEST_TIMEOUT_S, TimeUnit.SECONDS));
        }
        assertThat(pending).noneMatch(CompletableFuture::isDone);

        first.destroyForcibly(); // SIGKILL on Linux
        assertThat(first.waitFor(60, TimeUnit.SECONDS)).isTrue();

        for (final CompletableFuture<EchoMessages.EchoReply> future : pending)
        {
            try
            {
                // far below the 120 s request timeout: only the connection loss can complete it in time
                future.get(60, TimeUnit.SECONDS);
                fail("a request to a killed peer succeeded");
            }
            catch (final ExecutionException e)
            {
                assertThat(e.getCause()).isInstanceOf(NodeUnreachableException.class)
                    .hasMessageContaining("node " + PEER);
                assertThat(((NodeUnreachableException)e.getCause()).nodeId()).isEqualTo(PEER);
            }
        }

        startPeer(peerPort);
        final EchoMessages.EchoReply afterRestart = local.requestSync(new EchoMessages.Echo().value(20), PEER, 30, TimeUnit.SECONDS);
        assertThat(afterRestart.value).isEqualTo(21);
        assertThat(afterRestart.sourceNodeId()).isEqualTo(PEER);
    }
}
