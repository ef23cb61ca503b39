package io.sirocco.examples.cli.mcast;

import io.sirocco.examples.cli.config.CliSettings;
import io.sirocco.multicast.model.ClaimResult;
import io.sirocco.multicast.model.DeliveryHandler;
import io.sirocco.multicast.model.DeliveryMode;
import io.sirocco.multicast.Group;
import io.sirocco.multicast.GroupConfig;
import io.sirocco.multicast.model.Member;
import io.sirocco.multicast.MembershipListener;
import io.sirocco.multicast.model.Role;
import io.sirocco.multicast.model.SlotClaim;
import io.sirocco.multicast.Subgroup;
import io.sirocco.multicast.model.SubgroupSpec;
import io.sirocco.multicast.model.View;
import io.sirocco.multicast.smc.SpindleOptions;
import io.sirocco.multicast.smc.SubgroupStats;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One member of an {@code mcast-bench} run or a multi-process test: joins, sends its share (subgroups {@code s0..}),
 * ends each active subgroup with a marker message, and finishes once it delivered the marker of every sender of the
 * current view in every active subgroup. Counts, times and hashes what it delivered.
 */
public final class McastMemberRunner implements AutoCloseable
{
    private static final long MARKER = -1L;

    private final McastMemberParams p;
    private final Group group;
    private final Handler[] handlers;
    private volatile View view;
    private volatile long smallerViewEpochMs;
    /** Incremented by the predicate thread's listener, read by the thread that builds the result. */
    private final AtomicInteger exclusions = new AtomicInteger();
    private volatile boolean stop;
    /** Sender thread: claims that found the window full, and the time they waited (diagnostics). */
    private volatile long blockedClaims;
    private volatile long blockedNs;

    // Written by the predicate thread only.
    private long delivered;
    private long deliveredOthers;
    private long firstNs;
    private long lastNs;
    private long firstOthersNs;
    private long lastOthersNs;
    /** Per subgroup: order is total within a subgroup only, so each subgroup has its own running hash. */
    private final long[] digests;
    private final Set<Long>[] markers;
    private final Set<Long> slowSenderIds = new HashSet<>();

    @SuppressWarnings("unchecked")
    public McastMemberRunner(final McastMemberParams params, final Duration joinTimeout) throws TimeoutException
    {
        this.p = params;
        this.handlers = new Handler[params.subgroups()];
        this.markers = new Set[params.subgroups()];
        this.digests = new long[params.subgroups()];
        Arrays.fill(digests, 0x1234_5678_9abc_def0L);
        final boolean sender = params.isSender(params.index());
        final List<Group.SubgroupRegistration> regs = new ArrayList<>();
        for (int k = 0; k < params.subgroups(); k++)
        {
            handlers[k] = new Handler(k);
            markers[k] = new HashSet<>();
            regs.add(new Group.SubgroupRegistration(
                new SubgroupSpec("s" + k, DeliveryMode.ORDERED, params.window(), params.size(), params.size()),
                sender ? Role.WRITER_READER : Role.READER, handlers[k]));
        }
        GroupConfig cfg = GroupConfig.defaults(params.group())
            .withTransport(params.transport())
            .withRegistry("local".equals(params.transport()) ? "local" : "shm")
            .withMemberId(1000 + params.index())
            .withContact(params.index() == 0, params.members())
            .withFailureDetection(params.heartbeatMs(), params.suspicionMs())
            .withEndpoint(params.endpoint())
            .withSpindle(SpindleOptions.ALL_ON.withBatching(params.batching()).withNullSends(params.nulls()));
        final String idle = CliSettings.benchIdle();
        if (idle != null)
        {
            final String[] f = idle.split(",");
            // Experiments only (docs/benchmarks.md): "spins,yields,maxParkNs" replaces the transport's default policy.
            cfg = cfg.withIdle(Integer.parseInt(f[0].strip()), Integer.parseInt(f[1].strip()),
                Long.parseLong(f[2].strip()));
        }
        this.group = Group.join(cfg, regs, membershipListener(params.members()), joinTimeout);
        // The listener may already have installed a newer view than the one join() returned with.
        observe(group.view());
        for (int i = 0; i < params.members(); i++)
        {
            if (params.isDesignatedDelayed(i))
            {
                slowSenderIds.add(1000L + i);
            }
        }
    }

    /** Records the newest view, when the group first shrank, and every exclusion of this member. */
    private MembershipListener membershipListener(final int members)
    {
        return new MembershipListener()
    {
        @Override
        public void onViewInstalled(final View v, final List<Long> joined, final List<Long> left)
        {
            observe(v);
            if (v.members().size() < members && smallerViewEpochMs == 0)
            {
                smallerViewEpochMs = System.currentTimeMillis();
            }
        }

        @Override
        public void onExcluded(final String reason)
        {
            // Reported in the result: a test of agreement between survivors must know a member restarted empty.
            exclusions.incrementAndGet();
            System.err.println("EXCLUDED " + reason);
        }
    };
    }

    /** Keeps the newest view: the predicate thread's listener and the constructor both report one. */
    private synchronized void observe(final View v)
    {
        if (view == null || v.viewId() > view.viewId())
        {
            view = v;
        }
    }

    public Group group()
    {
        return group;
    }

    /** Sends this member's share (if it is a sender) and waits until every marker arrived. */
    public McastMemberResult run(final Duration timeout) throws InterruptedException
    {
        Thread sender = null;
        if (p.isSender(p.index()))
        {
            sender = Thread.ofPlatform().name("bench-sender-" + p.index()).start(this::send);
        }
        final ThreadStatsSampler sampler = ThreadStatsSampler.startIfEnabled(group, () -> blockedClaims,
            () -> blockedNs, () -> deliveredOthers);
        final long deadline = System.nanoTime() + timeout.toNanos();
        long nextDump = System.nanoTime() + 10_000_000_000L;
        while (!done() && System.nanoTime() < deadline)
        {
            Thread.sleep(1);
            if (System.nanoTime() > nextDump)
            {
                nextDump += 10_000_000_000L;
                System.err.println("still running in " + view + ": " + (group.subgroup("s0").currentEngine() == null
                    ? "no engine" : group.subgroup("s0").currentEngine().describe()));
            }
        }
        stop = true;
        if (sender != null)
        {
            sender.join(10_000);
        }
        if (sampler != null)
        {
            System.err.println("WINDOW " + firstOthersNs + " " + lastOthersNs + " " + firstNs + " " + lastNs);
            sampler.stopAndDump(System.err);
        }
        final SubgroupStats s = group.stats();
        final View v = view;
        return new McastMemberResult(p.index(), delivered, deliveredOthers, firstNs, lastNs, firstOthersNs,
            lastOthersNs, done() ? digest() : 0, s.sendBatches, s.sentMessages, s.receiveBatches, s.receivedMessages,
            s.deliverBatches, s.deliveredMessages, s.nullsSent, group.pushCount(), smallerViewEpochMs,
            v.members().size(), exclusions.get());
    }

    private boolean done()
    {
        final View v = view;
        for (int k = 0; k < p.activeSubgroups(); k++)
        {
            for (final View.SubgroupInfo info : v.subgroups())
            {
                if (info.name().equals("s" + k))
                {
                    for (final int r : info.senderRanks())
                    {
                        final Member m = v.members().get(r);
                        synchronized (markers[k])
                        {
                            if (!markers[k].contains(m.memberId()))
                            {
                                return false;
                            }
                        }
                    }
                }
            }
        }
        return true;
    }

    private void send()
    {
        final SlotClaim claim = new SlotClaim();
        final int active = p.activeSubgroups();
        final boolean delayed = p.isDelayed(p.index());
        final boolean yielding = "yield".equals(p.delayMode());
        for (long n = 0; n < p.messages() && !stop; n++)
        {
            for (int k = 0; k < active && !stop; k++)
            {
                if (!sendOne(k, claim, ((long)p.index() << 32) | n))
                {
                    return;
                }
                if (delayed)
                {
                    busyWait(p.delayUs() * 1000, yielding);
                }
            }
        }
        // Markers: resent after a view change until this member delivered its own.
        final long me = group.memberId();
        while (!stop)
        {
            boolean all = true;
            for (int k = 0; k < active; k++)
            {
                final boolean mine;
                synchronized (markers[k])
                {
                    mine = markers[k].contains(me);
                }
                if (!mine)
                {
                    all = false;
                    final long viewId = view.viewId();
                    if (handlers[k].markerSentInView != viewId)
                    {
                        if (!sendOne(k, claim, MARKER))
                        {
                            return;
                        }
                        handlers[k].markerSentInView = viewId;
                    }
                }
            }
            if (all)
            {
                return;
            }
            try
            {
                Thread.sleep(1);
            }
            catch (final InterruptedException ex)
            {
                return;
            }
        }
    }

    /**
     * The delayed sender's wait after each send, on this application thread and holding no lock: a busy-wait that
     * reads the clock until {@code ns} passed. {@code spin} keeps the core (the paper's, where each member has its
     * own cores); {@code yield} offers the core to other runnable threads between clock reads, so on a host where
     * the members share fewer cores than they have busy threads the wait does not take a core away from the others.
     */
    private static void busyWait(final long ns, final boolean yielding)
    {
        final long until = System.nanoTime() + ns;
        while (System.nanoTime() - until < 0)
        {
            if (yielding)
            {
                Thread.yield();
            }
            else
            {
                Thread.onSpinWait();
            }
        }
    }

    private boolean sendOne(final int k, final SlotClaim claim, final long word)
    {
        final Subgroup sg = group.subgroup("s" + k);
        while (!stop)
        {
            int rc = sg.tryClaim(p.size(), claim);
            if (rc == ClaimResult.BACK_PRESSURED)
            {
                // Diagnostics: how often and how long this sender waits for a full window (one writer: this thread).
                final long t0 = System.nanoTime();
                rc = sg.claim(p.size(), claim, 1_000_000_000L);
                blockedNs = blockedNs + (System.nanoTime() - t0);
                blockedClaims = blockedClaims + 1;
            }
            else if (rc == ClaimResult.VIEW_CHANGING)
            {
                rc = sg.claim(p.size(), claim, 1_000_000_000L);
            }
            if (rc == ClaimResult.OK)
            {
                final MemorySegment b = claim.buffer();
                b.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, word);
                b.set(ValueLayout.JAVA_LONG_UNALIGNED, p.size() - 8, word);
                claim.commit();
                return true;
            }
            if (rc != ClaimResult.BACK_PRESSURED && rc != ClaimResult.VIEW_CHANGING)
            {
                return false;
            }
        }
        return false;
    }

    private long digest()
    {
        long d = 17;
        for (final long x : digests)
        {
            d = mix(d, x);
        }
        return d == 0 ? 1 : d;
    }

    private static long mix(final long h, final long v)
    {
        long x = (h ^ v) * 0x9E37_79B9_7F4A_7C15L;
        return x ^ (x >>> 29);
    }

    private final class Handler implements DeliveryHandler
    {
        final int k;
        volatile long markerSentInView = -1;

        Handler(final int k)
        {
            this.k = k;
        }

        @Override
        public void onMessage(final long senderId, final int senderRank, final long index, final long seq,
            final MemorySegment payload, final int length)
        {
            final long word = payload.get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
            final long tail = payload.get(ValueLayout.JAVA_LONG_UNALIGNED, length - 8);
            if (word != tail)
            {
                throw new IllegalStateException("torn message from " + senderId + " index " + index);
            }
            if (word == MARKER)
            {
                // A sender can send its marker twice: send() reads the view id before a claim that may wait through a
                // view change, so a marker that went out in the new view counts as sent in the old one and is sent
                // again. Only the first copy enters the digest: then nothing changes the digest once done() holds, and
                // the main thread's read of it does not race a late copy.
                final boolean first;
                synchronized (markers[k])
                {
                    first = !markers[k].contains(senderId);
                    if (first)
                    {
                        digests[k] = mix(mix(mix(digests[k], view.viewId()), senderId), index);
                        markers[k].add(senderId);
                    }
                }
                return;
            }
            digests[k] = mix(mix(mix(digests[k], view.viewId()), senderId), index);
            final long now = System.nanoTime();
            if (delivered++ == 0)
            {
                firstNs = now;
            }
            lastNs = now;
            if (!slowSenderIds.contains(senderId))
            {
                if (deliveredOthers++ == 0)
                {
                    firstOthersNs = now;
                }
                lastOthersNs = now;
            }
        }
    }

    @Override
    public void close()
    {
        group.close();
    }
}
