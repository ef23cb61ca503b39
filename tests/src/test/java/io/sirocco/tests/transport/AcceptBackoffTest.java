package io.sirocco.tests.transport;

import io.sirocco.tests.FreePorts;
import io.sirocco.transport.MessagingService;
import io.sirocco.transport.TransportContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 23 item 3: at the fd limit, {@code accept} fails at once for as long as the limit lasts and the listening
 * socket stays ready; the node used to spin on it (65,655 WARNs in 2 s) and a live peer was declared dead. Here a
 * node in a child process runs with a limit of {@value #FD_LIMIT} open files, idle sockets exhaust it, and while it
 * lasts: the node's failed accepts stay within what its back-off allows (a pause doubling from 10 ms to 1 s: at most
 * 7 failures plus one a second, where a spinning loop makes thousands), its WARNs stay rate-limited, and a peer
 * connected before the flood keeps getting every request answered. Once the idle sockets go, accepting resumes.
 */
@Timeout(240)
class AcceptBackoffTest
{
    private static final int FD_LIMIT = 256;
    private static final int PEER = 2;
    private static final Pattern ACCEPT_FAILURES = Pattern.compile("acceptFailures=(\\d+)");

    private final List<Socket> idle = new ArrayList<>();
    private final List<String> errors = new ArrayList<>();
    private Process child;
    private MessagingService local;
    private MessagingService late;

    @AfterEach
    void cleanUp() throws IOException
    {
        for (final Socket socket : idle)
        {
            socket.close();
        }
        if (child != null)
        {
            child.destroyForcibly();
        }
        if (local != null)
        {
            local.close();
        }
        if (late != null)
        {
            late.close();
        }
    }

    @Test
    void shouldBackOffAtTheFdLimitAndKeepServingLivePeers() throws Exception
    {
        final int port = FreePorts.next();
        final BufferedReader out = startChild(port);
        final PrintWriter in = new PrintWriter(child.getOutputStream(), true);
        final TransportContext context = new TransportContext().ownNodeId(1).transport("nio");
        context.addressMap().put(1, "127.0.0.1", 0).put(PEER, "127.0.0.1", port);
        local = MessagingService.start(context);
        EchoMessages.register(local);
        assertThat(echo(1).value).isEqualTo(2);

        // exhaust the child's descriptors with sockets that never send a hello (its hello deadline is 10 min)
        final InetSocketAddress target = new InetSocketAddress("127.0.0.1", port);
        for (int i = 0; i < FD_LIMIT + 64; i++)
        {
            final Socket socket = new Socket();
            socket.connect(target, 30_000);
            idle.add(socket);
        }
        final long floodStartNs = System.nanoTime();
        for (int i = 0; i < 200; i++)
        {
            assertThat(echo(100 + i).value).as("echo %d during the flood", i).isEqualTo(101 + i);
        }
        final long failuresDuring = acceptFailures(in, out);
        final double floodSeconds = (System.nanoTime() - floodStartNs) / 1e9;
        assertThat(failuresDuring).as("accepts failed at the fd limit").isPositive();
        assertThat(failuresDuring).as("failed accepts in %.1f s of fd exhaustion", floodSeconds)
            .isLessThanOrEqualTo(8 + 2 * (long)Math.ceil(floodSeconds));

        for (final Socket socket : idle)
        {
            socket.close();
        }
        idle.clear();
        // accepting resumes: a new node connects to the child and gets its answer
        final TransportContext lateContext = new TransportContext().ownNodeId(3).transport("nio");
        lateContext.addressMap().put(3, "127.0.0.1", 0).put(PEER, "127.0.0.1", port);
        late = MessagingService.start(lateContext);
        EchoMessages.register(late);
        final EchoMessages.EchoReply reply = late.requestSync(new EchoMessages.Echo().value(7), PEER, 60, TimeUnit.SECONDS);
        assertThat(reply.value).isEqualTo(8);
        synchronized (errors)
        {
            final long acceptWarns = errors.stream().filter(l -> l.contains("accept failed")).count();
            assertThat(acceptWarns).as("accept-failed WARNs (rate-limited to one a second)")
                .isLessThanOrEqualTo(2 + (long)Math.ceil((System.nanoTime() - floodStartNs) / 1e9));
        }
    }

    private EchoMessages.EchoReply echo(final long value)
    {
        return local.requestSync(new EchoMessages.Echo().value(value), PEER, 60, TimeUnit.SECONDS);
    }

    private BufferedReader startChild(final int port) throws Exception
    {
        final String java = ProcessHandle.current().info().command().orElse("java");
        final String command = "ulimit -n " + FD_LIMIT + " && exec '" + java + "' -cp '"
            + System.getProperty("java.class.path") + "' -Dorg.slf4j.simpleLogger.defaultLogLevel=warn"
            + " -Dsirocco.transport.handshake.timeout.ms=600000 -Dsirocco.transport.handshake.pending.max=100000 "
            + TransportPeerMain.class.getName() + " " + PEER + " " + port;
        child = new ProcessBuilder("bash", "-c", command).start();
        final BufferedReader err = new BufferedReader(new InputStreamReader(child.getErrorStream()));
        Thread.ofPlatform().daemon().start(() -> collect(err));
        final BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream()));
        final CompletableFuture<String> ready = CompletableFuture.supplyAsync(() -> readUntil(out, "READY"));
        assertThat(ready.get(60, TimeUnit.SECONDS)).as("child started").isEqualTo("READY");
        return out;
    }

    private void collect(final BufferedReader err)
    {
        try
        {
            String line;
            while ((line = err.readLine()) != null)
            {
                synchronized (errors)
                {
                    errors.add(line);
                }
            }
        }
        catch (final IOException ignored)
        {
            // the child ended
        }
    }

    private static long acceptFailures(final PrintWriter in, final BufferedReader out) throws Exception
    {
        in.println("STATS");
        final String line = CompletableFuture.supplyAsync(() -> readUntil(out, "STATS ")).get(60, TimeUnit.SECONDS);
        final Matcher matcher = ACCEPT_FAILURES.matcher(line);
        assertThat(matcher.find()).as("statistics line: %s", line).isTrue();
        return Long.parseLong(matcher.group(1));
    }

    private static String readUntil(final BufferedReader out, final String prefix)
    {
        try
        {
            String line;
            while ((line = out.readLine()) != null)
            {
                if (line.startsWith(prefix))
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
    }
}
