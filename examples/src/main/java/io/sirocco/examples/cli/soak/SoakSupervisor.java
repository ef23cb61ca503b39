package io.sirocco.examples.cli.soak;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import io.sirocco.multicast.config.MulticastSettings;
import io.sirocco.transport.agent.Agents;

/**
 * Runs a soak ({@link SoakPlan}): one long-lived subscriber (id 1) and publisher (id 2), the other processes churn
 * (ids from {@link SeqChecker#CHURN_ID_BASE}, subscribers and publishers in turn). Every kill period one churn process
 * is SIGKILLed and a new one started; every freeze period one is SIGSTOPped for a while and resumed; a churn process
 * that ends by itself (for example after being excluded from the group while frozen) is restarted and counted. At
 * the end the long-lived publisher drains and the long-lived subscriber must hold every one of its samples in order,
 * and no subscriber may have seen a gap or a step back in any writer's sequence. The long-lived processes' RSS,
 * threads and open files are sampled every 5 s. Everything runs on the calling thread; each child has a pump thread
 * ({@link SoakProcess}).
 */
public final class SoakSupervisor
{
    private static final long SAMPLE_NS = TimeUnit.SECONDS.toNanos(5);
    private static final long PROGRESS_NS = TimeUnit.MINUTES.toNanos(1);
    private static final long STABLE_SUB = 1;
    private static final long STABLE_PUB = 2;

    private final SoakPlan plan;
    private final PrintStream out;
    private final Random random = new Random();
    private final List<SoakProcess> churn = new ArrayList<>();
    private final Map<SoakProcess, Long> thawAtNs = new HashMap<>();
    private final ProcessSampler sampler = new ProcessSampler();
    private SoakProcess stableSub;
    private SoakProcess stablePub;
    private Path shmDir;
    private Path logDir;
    private long nextId = SeqChecker.CHURN_ID_BASE;
    private long kills;
    private long freezes;
    private long restarts;
    private long crashes;
    private long churnSent;
    private long churnLost;
    private long disorder;
    private long writeTimeouts;
    private String problem = "";

    public SoakSupervisor(final SoakPlan plan, final PrintStream out)
    {
        this.plan = plan;
        this.out = out;
    }

    public SoakResult run() throws IOException, InterruptedException
    {
        shmDir = Files.createTempDirectory(MulticastSettings.shmDirectory(), "sirocco-soak-");
        logDir = Files.createTempDirectory("sirocco-soak-logs-");
        final Thread hook = Agents.threadFactory("soak-shutdown").newThread(this::killAll);
        Runtime.getRuntime().addShutdownHook(hook);
        long stableSent = 0;
        try
        {
            if (startStable())
            {
                churnLoop();
            }
            stopChurn();
            if (problem.isEmpty())
            {
                stableSent = finishStable();
            }
        }
        finally
        {
            killAll();
            Runtime.getRuntime().removeShutdownHook(hook);
            deleteTree(shmDir);
        }
        return result(stableSent);
    }

    private SoakResult result(final long stableSent)
    {
        final long received = stableSub.receivedFrom(STABLE_PUB);
        // The long-lived publisher's samples that never came, plus skips in the churn writers' streams (the gaps
        // in the long-lived publisher's stream are among the first: they are not counted twice).
        final long stableGaps = Math.max(0, stableSub.lastFrom(STABLE_PUB) - received);
        final long lost = problem.isEmpty() ? Math.max(0, stableSent - received)
            + Math.max(0, stableSub.gaps() - stableGaps) + stableSub.badStarts() : 0;
        final SoakResult result = new SoakResult(plan, new SoakResult.Counts(kills, freezes, restarts, crashes,
            stableSent, received, lost, churnSent, stableSub.received() - received, churnLost,
            disorder + stableSub.disorder(),
            writeTimeouts + (stablePub == null ? 0 : stablePub.writeTimeouts())),
            new SoakResult.Usage(sampler.afterWarmUp(), sampler.max(), sampler.last(), sampler.unboundedReason()),
            problem);
        if (result.passed())
        {
            deleteTree(logDir);
        }
        else
        {
            problem = problem + (problem.isEmpty() ? "" : "; ") + "node logs in " + logDir;
            return new SoakResult(plan, result.counts(), result.usage(), problem);
        }
        return result;
    }

    private boolean startStable() throws IOException
    {
        stableSub = SoakProcess.start(plan, "sub", STABLE_SUB, shmDir, logDir);
        if (!await(stableSub::ready, 120))
        {
            problem = "the long-lived subscriber was not ready within 120 s";
            return false;
        }
        stablePub = SoakProcess.start(plan, "pub", STABLE_PUB, shmDir, logDir);
        if (!await(stablePub::ready, 120))
        {
            problem = "the long-lived publisher did not match the subscriber within 120 s";
            return false;
        }
        for (int i = 0; i < plan.processes() - 2; i++)
        {
            churn.add(SoakProcess.start(plan, i % 2 == 0 ? "sub" : "pub", nextId++, shmDir, logDir));
        }
        return true;
    }

    private void churnLoop() throws IOException, InterruptedException
    {
        final long startNs = System.nanoTime();
        final long endNs = startNs + TimeUnit.SECONDS.toNanos(plan.seconds());
        final long killNs = TimeUnit.SECONDS.toNanos(plan.killEverySeconds());
        final long freezeNs = TimeUnit.SECONDS.toNanos(plan.freezeEverySeconds());
        long nextKillNs = startNs + killNs;
        long nextFreezeNs = startNs + freezeNs;
        long nextSampleNs = startNs;
        long nextProgressNs = startNs + PROGRESS_NS;
        long now;
        while ((now = System.nanoTime()) < endNs)
        {
            if (stableCrashed())
            {
                return;
            }
            replaceExited();
            if (killNs > 0 && now >= nextKillNs)
            {
                killOne();
                nextKillNs += killNs;
            }
            if (freezeNs > 0 && now >= nextFreezeNs)
            {
                freezeOne(now);
                nextFreezeNs += freezeNs;
            }
            thawDue(now);
            if (now >= nextSampleNs)
            {
                sampler.sample(List.of(stableSub.pid(), stablePub.pid()));
                nextSampleNs += SAMPLE_NS;
            }
            if (now >= nextProgressNs)
            {
                progress(TimeUnit.NANOSECONDS.toSeconds(now - startNs));
                nextProgressNs += PROGRESS_NS;
            }
            LockSupport.parkNanos(100_000_000L);
        }
    }

    private boolean stableCrashed()
    {
        for (final SoakProcess p : List.of(stableSub, stablePub))
        {
            if (!p.alive())
            {
                crashes++;
                problem = String.format(Locale.ROOT, "the long-lived %s (pid %d) exited with code %d %s", p.role,
                    p.pid(), p.exitCode(), p.failure());
                return true;
            }
        }
        return false;
    }

    private void progress(final long elapsedS)
    {
        out.printf(Locale.ROOT, "soak: %d of %d s: %d kills, %d freezes, %d other restarts; the long-lived " +
            "publisher sent %d, the long-lived subscriber received %d (gaps %d)%n", elapsedS, plan.seconds(), kills,
            freezes, restarts, stablePub.sent(), stableSub.received(), stableSub.gaps());
    }

    private void killOne() throws IOException, InterruptedException
    {
        if (churn.isEmpty())
        {
            return;
        }
        final SoakProcess victim = churn.get(random.nextInt(churn.size()));
        victim.kill();
        thawAtNs.remove(victim);
        kills++;
        replace(victim);
    }

    private void freezeOne(final long now) throws IOException, InterruptedException
    {
        final List<SoakProcess> candidates = churn.stream().filter(p -> !p.frozen() && p.alive()).toList();
        if (candidates.isEmpty())
        {
            return;
        }
        final SoakProcess victim = candidates.get(random.nextInt(candidates.size()));
        victim.freeze(true);
        thawAtNs.put(victim, now + TimeUnit.SECONDS.toNanos(plan.freezeSeconds()));
        freezes++;
    }

    private void thawDue(final long now) throws IOException, InterruptedException
    {
        for (final SoakProcess p : List.copyOf(thawAtNs.keySet()))
        {
            if (now >= thawAtNs.get(p))
            {
                p.freeze(false);
                thawAtNs.remove(p);
            }
        }
    }

    /** Churn processes that ended by themselves: counted, and replaced. */
    private void replaceExited() throws IOException, InterruptedException
    {
        for (final SoakProcess p : List.copyOf(churn))
        {
            if (!p.alive() && !thawAtNs.containsKey(p))
            {
                restarts++;
                p.kill();
                replace(p);
            }
        }
    }

    private void replace(final SoakProcess gone) throws IOException
    {
        retire(gone);
        churn.add(SoakProcess.start(plan, gone.role, nextId++, shmDir, logDir));
    }

    /** Adds a churn process's last report to the totals and forgets it. */
    private void retire(final SoakProcess gone)
    {
        churn.remove(gone);
        churnSent += gone.sent();
        writeTimeouts += gone.writeTimeouts();
        churnLost += gone.gaps();
        disorder += gone.disorder();
    }

    private void stopChurn() throws IOException, InterruptedException
    {
        for (final SoakProcess p : List.copyOf(thawAtNs.keySet()))
        {
            p.freeze(false);
        }
        thawAtNs.clear();
        for (final SoakProcess p : List.copyOf(churn))
        {
            p.kill();
            retire(p);
        }
    }

    /** Ends the long-lived pair: the publisher drains, then the subscriber must hold all it sent. Returns sent. */
    private long finishStable() throws InterruptedException
    {
        if (!stablePub.finish(180) || !stablePub.done())
        {
            problem = "the long-lived publisher did not finish within 180 s " + stablePub.failure();
            return stablePub.sent();
        }
        final long sent = stablePub.sent();
        await(() -> stableSub.receivedFrom(STABLE_PUB) >= sent, 120);
        if (!stableSub.finish(60))
        {
            problem = "the long-lived subscriber did not finish within 60 s";
        }
        return sent;
    }

    private static boolean await(final BooleanSupplier condition, final long seconds)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() > deadline)
            {
                return false;
            }
            LockSupport.parkNanos(20_000_000L);
        }
        return true;
    }

    /** Kills every child still running (the end of a run, or the supervisor's own shutdown). */
    private void killAll()
    {
        final List<SoakProcess> all = new ArrayList<>(churn);
        if (stableSub != null)
        {
            all.add(stableSub);
        }
        if (stablePub != null)
        {
            all.add(stablePub);
        }
        for (final SoakProcess p : all)
        {
            try
            {
                if (p.alive())
                {
                    p.kill();
                }
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void deleteTree(final Path dir)
    {
        try (Stream<Path> all = Files.walk(dir))
        {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        catch (final IOException ignored)
        {
            // Best effort: a temporary directory.
        }
    }
}
