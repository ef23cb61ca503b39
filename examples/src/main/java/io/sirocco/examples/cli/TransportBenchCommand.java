package io.sirocco.examples.cli;

import io.sirocco.examples.cli.config.CliMain;
import io.sirocco.examples.cli.config.OptionValues;
import io.sirocco.examples.cli.transport.BenchMessages;
import io.sirocco.examples.cli.transport.BenchServer;
import io.sirocco.transport.MessagingService;
import io.sirocco.transport.TransportContext;
import io.sirocco.transport.loopback.LoopbackFabric;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code sirocco transport-bench}: round trips (rtt) or one-way throughput of the messaging transport, over TCP
 * (against a peer process it forks from the same class path) or loopback (two nodes in this process).
 */
@Command(name = "transport-bench", mixinStandardHelpOptions = true,
    description = "Benchmark the messaging transport: request/response round trips or one-way throughput.")
public final class TransportBenchCommand implements Callable<Integer>
{
    private static final int CLIENT = 1;
    private static final int SERVER = 2;

    @Option(names = "--transport", defaultValue = "tcp", description = "tcp or loopback (default: ${DEFAULT-VALUE})",
        converter = OptionValues.TransportBenchTransport.class)
    String transport;

    @Option(names = "--mode", defaultValue = "rtt", description = "rtt or throughput (default: ${DEFAULT-VALUE})")
    String mode;

    @Option(names = "--size", defaultValue = "64", description = "payload bytes per message (default: ${DEFAULT-VALUE})",
        converter = OptionValues.PayloadBytes.class)
    int size;

    @Option(names = "--threads", defaultValue = "1", description = "sending threads (default: ${DEFAULT-VALUE})",
        converter = OptionValues.Positive.class)
    int threads;

    @Option(names = "--seconds", defaultValue = "10", description = "measured seconds (default: ${DEFAULT-VALUE})")
    double seconds;

    @Option(names = "--warmup-seconds", defaultValue = "2", description = "unmeasured warm-up seconds (default: ${DEFAULT-VALUE})")
    double warmupSeconds;

    @Option(names = "--json", description = "end the output with one JSON line")
    boolean json;

    @Option(names = "--threading", defaultValue = "inline",
        description = "inline: parse and handle on the receiving thread (inline coordinator, 0 handler threads); " +
            "default: the library defaults (parse and complete responses on the receiving thread, handlers on " +
            "handler threads); dedicated: the paper's coordinator thread and handler threads (default: ${DEFAULT-VALUE})")
    String threading;

    @Option(names = "--handler-threads", defaultValue = "-1",
        description = "handler threads per node; overrides --threading's choice")
    int handlerThreads;

    @Option(names = "--serve-port", hidden = true, description = "internal: run as the forked TCP peer on this port")
    int servePort;

    @Override
    public Integer call() throws Exception
    {
        if (servePort > 0)
        {
            return serve();
        }
        final String usage = usageError();
        if (usage != null)
        {
            System.err.println("transport-bench: " + usage);
            return 2;
        }
        Process peer = null;
        MessagingService server = null;
        MessagingService client = null;
        try
        {
            if (transport.equals("tcp"))
            {
                final int port = freePort();
                peer = forkPeer(port);
                final TransportContext context = tune(new TransportContext().ownNodeId(CLIENT).transport("nio"));
                context.addressMap().put(CLIENT, "127.0.0.1", 0).put(SERVER, "127.0.0.1", port);
                client = MessagingService.start(context);
            }
            else
            {
                final LoopbackFabric fabric = new LoopbackFabric();
                server = MessagingService.start(tune(new TransportContext().ownNodeId(SERVER).transport("loopback").loopbackFabric(fabric)));
                new BenchServer().install(server);
                client = MessagingService.start(tune(new TransportContext().ownNodeId(CLIENT).transport("loopback").loopbackFabric(fabric)));
            }
            new BenchServer().install(client);
            return mode.equals("rtt") ? rtt(client) : throughput(client);
        }
        finally
        {
            if (client != null)
            {
                client.close();
            }
            if (server != null)
            {
                server.close();
            }
            if (peer != null)
            {
                peer.destroy();
                if (!peer.waitFor(10, TimeUnit.SECONDS))
                {
                    peer.destroyForcibly();
                }
            }
        }
    }

    /** What is wrong with the options, or null. */
    private String usageError()
    {
        if (!transport.equals("tcp") && !transport.equals("loopback"))
        {
            return "--transport must be tcp or loopback, not " + transport;
        }
        if (!mode.equals("rtt") && !mode.equals("throughput"))
        {
            return "--mode must be rtt or throughput, not " + mode;
        }
        if (!threading.equals("inline") && !threading.equals("default") && !threading.equals("dedicated"))
        {
            return "--threading must be inline, default or dedicated, not " + threading;
        }
        if (size < 0 || threads < 1 || seconds <= 0)
        {
            return "--size >= 0, --threads >= 1 and --seconds > 0 are required";
        }
        return null;
    }

    private int serve() throws InterruptedException
    {
        final TransportContext context = tune(new TransportContext().ownNodeId(SERVER).transport("nio"));
        context.addressMap().put(SERVER, "127.0.0.1", servePort);
        final MessagingService node = MessagingService.start(context);
        new BenchServer().install(node);
        System.out.println("READY");
        System.out.flush();
        Thread.currentThread().join();
        return 0;
    }

    private TransportContext tune(final TransportContext context)
    {
        if (threading.equals("inline"))
        {
            context.inlineCoordinator(true).handlerThreads(0);
        }
        else if (threading.equals("dedicated"))
        {
            context.inlineCoordinator(false);
        }
        if (handlerThreads >= 0)
        {
            context.handlerThreads(handlerThreads);
        }
        return context;
    }

    private static int freePort() throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0))
        {
            return socket.getLocalPort();
        }
    }

    private Process forkPeer(final int port) throws IOException, InterruptedException
    {
        final String java = ProcessHandle.current().info().command().orElse("java");
        final List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED"));
        for (final String key : System.getProperties().stringPropertyNames())
        {
            if (key.startsWith("sirocco.") || key.startsWith("org.slf4j."))
            {
                command.add("-D" + key + "=" + System.getProperty(key)); // the peer runs with the same settings
            }
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), CliMain.CLASS_NAME, "transport-bench",
            "--serve-port", Integer.toString(port), "--handler-threads", Integer.toString(handlerThreads),
            "--threading", threading));
        final Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        final BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream()));
        final String line = out.readLine();
        if (!"READY".equals(line))
        {
            process.destroyForcibly();
            throw new IOException("the forked peer did not start (said " + line + ")");
        }
        return process;
    }

    private int rtt(final MessagingService client) throws InterruptedException
    {
        final long warmupEndNs = System.nanoTime() + (long)(warmupSeconds * 1e9);
        final long endNs = warmupEndNs + (long)(seconds * 1e9);
        final Histogram[] histograms = new Histogram[threads];
        final Thread[] workers = new Thread[threads];
        final AtomicLong failures = new AtomicLong();
        for (int t = 0; t < threads; t++)
        {
            final Histogram histogram = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
            histograms[t] = histogram;
            workers[t] = Thread.ofPlatform().name("bench-rtt-" + t).start(() ->
            {
                final BenchMessages.Ping ping = new BenchMessages.Ping(size);
                while (true)
                {
                    final long startNs = System.nanoTime();
                    if (startNs - endNs >= 0)
                    {
                        return;
                    }
                    try
                    {
                        client.requestSync(ping, SERVER, 10, TimeUnit.SECONDS);
                    }
                    catch (final RuntimeException e)
                    {
                        failures.incrementAndGet();
                        continue;
                    }
                    final long doneNs = System.nanoTime();
                    if (startNs - warmupEndNs >= 0)
                    {
                        histogram.recordValue(Math.min(doneNs - startNs, histogram.getHighestTrackableValue()));
                    }
                }
            });
        }
        for (final Thread worker : workers)
        {
            worker.join();
        }
        final Histogram all = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
        for (final Histogram histogram : histograms)
        {
            all.add(histogram);
        }
        printRtt(all, failures.get());
        return failures.get() == 0 ? 0 : 1;
    }

    private void printRtt(final Histogram all, final long failed)
    {
        final double p50 = all.getValueAtPercentile(50) / 1000.0;
        final double p90 = all.getValueAtPercentile(90) / 1000.0;
        final double p99 = all.getValueAtPercentile(99) / 1000.0;
        final double max = all.getMaxValue() / 1000.0;
        final long count = all.getTotalCount();
        System.out.printf(Locale.ROOT, "transport-bench rtt over %s: size %d B, %d thread(s), %.1f s: %d round trips%n",
            transport, size, threads, seconds, count);
        System.out.printf(Locale.ROOT, "  rtt p50 %.2f us  p90 %.2f us  p99 %.2f us  max %.2f us  (%.0f round trips/s, %d failed)%n",
            p50, p90, p99, max, count / seconds, failed);
        if (json)
        {
            System.out.printf(Locale.ROOT, "{\"transport\":\"%s\",\"mode\":\"rtt\",\"size\":%d,\"threads\":%d,\"threading\":\"" + threading + "\"," +
                "\"rtt_p50_us\":%.3f,\"rtt_p90_us\":%.3f,\"rtt_p99_us\":%.3f,\"rtt_max_us\":%.3f,\"count\":%d,\"failed\":%d}%n",
                transport, size, threads, p50, p90, p99, max, count, failed);
        }
    }

    private int throughput(final MessagingService client) throws InterruptedException
    {
        final long warmupEndNs = System.nanoTime() + (long)(warmupSeconds * 1e9);
        final AtomicLong sent = new AtomicLong();
        final Thread[] workers = new Thread[threads];
        final long[] startCount = new long[1];
        final long startNs;
        final long endNs;
        final AtomicLong failures = new AtomicLong();
        // warm up, then measure from the peer's count at the start to the moment it has received everything sent
        runSenders(client, workers, warmupEndNs, sent, failures);
        final long warmSent = sent.get();
        waitReceived(client, warmSent);
        startCount[0] = stats(client).messages;
        startNs = System.nanoTime();
        endNs = startNs + (long)(seconds * 1e9);
        runSenders(client, workers, endNs, sent, failures);
        final long measuredSent = sent.get() - warmSent;
        final BenchMessages.StatsReply last = waitReceived(client, sent.get());
        final long doneNs = System.nanoTime();
        final long received = last.messages - startCount[0];
        final double elapsedS = (doneNs - startNs) / 1e9;
        final double msgsPerS = received / elapsedS;
        final double mbPerS = received * (double)size / elapsedS / 1e6;
        System.out.printf(Locale.ROOT, "transport-bench throughput over %s: size %d B, %d thread(s), %.1f s%n",
            transport, size, threads, elapsedS);
        System.out.printf(Locale.ROOT, "  %d messages sent, %d received: %.0f msgs/s, %.1f MB/s (payload)%n",
            measuredSent, received, msgsPerS, mbPerS);
        if (json)
        {
            System.out.printf(Locale.ROOT, "{\"transport\":\"%s\",\"mode\":\"throughput\",\"size\":%d,\"threads\":%d,\"threading\":\"" + threading + "\"," +
                "\"msgs_per_s\":%.0f,\"mb_per_s\":%.2f,\"count\":%d,\"seconds\":%.3f}%n",
                transport, size, threads, msgsPerS, mbPerS, received, elapsedS);
        }
        return received == measuredSent && failures.get() == 0 ? 0 : 1;
    }

    private void runSenders(final MessagingService client, final Thread[] workers, final long endNs,
        final AtomicLong sent, final AtomicLong failures) throws InterruptedException
    {
        for (int t = 0; t < threads; t++)
        {
            workers[t] = Thread.ofPlatform().name("bench-send-" + t).start(() ->
            {
                final BenchMessages.Blob blob = new BenchMessages.Blob(size);
                long count = 0;
                try
                {
                    while (true)
                    {
                        for (int i = 0; i < 64; i++)
                        {
                            client.send(blob, SERVER);
                        }
                        count += 64;
                        if (System.nanoTime() - endNs >= 0)
                        {
                            break;
                        }
                    }
                }
                catch (final RuntimeException e)
                {
                    failures.incrementAndGet();
                }
                sent.addAndGet(count);
            });
        }
        for (final Thread worker : workers)
        {
            worker.join();
        }
    }

    private static BenchMessages.StatsReply stats(final MessagingService client)
    {
        return client.requestSync(new BenchMessages.Stats(), SERVER, 30, TimeUnit.SECONDS);
    }

    private static BenchMessages.StatsReply waitReceived(final MessagingService client, final long total)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true)
        {
            final BenchMessages.StatsReply reply = stats(client);
            if (reply.messages >= total || System.nanoTime() - deadline >= 0)
            {
                return reply;
            }
            Thread.sleep(1);
        }
    }
}
