package io.sirocco.multicast;

import io.sirocco.multicast.model.DeliveryHandler;
import io.sirocco.multicast.model.Role;
import io.sirocco.multicast.model.SubgroupSpec;
import io.sirocco.multicast.smc.SpindleOptions;
import io.sirocco.multicast.view.LocalRegistry;
import io.sirocco.multicast.view.ShmRegistry;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntFunction;

/** N members in this JVM, for tests: starts them together, records what each delivered. */
final class TestCluster implements AutoCloseable
{
    /** One delivered message: its sender id, index, seq and the first 8 payload bytes (or -1). */
    record Delivery(long sender, long index, long seq, int length, long firstWord)
    {
    }

    /** Records deliveries; thread-safe enough for a single predicate thread writer and test readers. */
    static final class Recorder implements DeliveryHandler
    {
        static volatile LossyModeTest.SlowHook slowHook;
        final ConcurrentLinkedQueue<Delivery> deliveries = new ConcurrentLinkedQueue<>();
        volatile long lost;
        volatile long count;
        volatile long batches;
        /** Optional back-pressure gate ({@link DeliveryHandler#canAccept()}): asked on the predicate thread. */
        volatile java.util.function.BooleanSupplier gate;

        @Override
        public boolean canAccept()
        {
            final java.util.function.BooleanSupplier g = gate;
            return g == null || g.getAsBoolean();
        }

        @Override
        public void onMessage(final long senderId, final int senderRank, final long index, final long seq,
            final MemorySegment payload, final int length)
        {
            final LossyModeTest.SlowHook hook = slowHook;
            if (hook != null)
            {
                hook.onMessage(this, payload);
            }
            final long word = length >= 8 ? payload.get(ValueLayout.JAVA_LONG_UNALIGNED, 0) : -1;
            if (length >= 16)
            {
                // Last 8 bytes must repeat the first word: detects torn or partial copies.
                final long tail = payload.get(ValueLayout.JAVA_LONG_UNALIGNED, length - 8);
                if (tail != word)
                {
                    throw new AssertionError("torn message from " + senderId + " index " + index + ": " + word
                        + " vs " + tail);
                }
            }
            deliveries.add(new Delivery(senderId, index, seq, length, word));
            count++;
        }

        @Override
        public void onBatchEnd(final int messages)
        {
            batches++;
        }

        @Override
        public void onLost(final long senderId, final long c)
        {
            lost += c;
        }

        List<Delivery> list()
        {
            return new ArrayList<>(deliveries);
        }
    }

    final String groupName;
    final String transport;
    final List<Group> groups = new ArrayList<>();
    final List<Recorder> recorders = new ArrayList<>();

    /** The registry of one member (null: the one its configuration names). */
    @FunctionalInterface
    interface Registries
    {
        io.sirocco.multicast.view.MembershipRegistry of(int index, String groupName);
    }

    /**
     * The suspicion timeout of a test that is not about failure detection: all members share one JVM, so a loaded
     * machine's scheduling stalls (seen: over 2 s at load 47 on 2 cores) stop every heartbeat at once, and the
     * default 2 s made the members suspect each other (a view change, exclusions, claims failing VIEW_CHANGING) in
     * tests about something else.
     */
    static final long QUIET_SUSPICION_MS = 10_000;
    /**
     * The suspicion timeout of a test that crashes or halts a member and needs it suspected: longer than the default
     * 2 s, so a loaded machine's stalls trigger fewer false suspicions, still short enough to keep the test quick.
     * Such a test must still tolerate a false view change or assert what holds despite one.
     */
    static final long CRASH_SUSPICION_MS = 4_000;

    TestCluster(final int members, final String transport, final SpindleOptions options,
        final IntFunction<List<SubgroupSpec>> specs, final IntFunction<Role> roles) throws Exception
    {
        this(members, transport, options, specs, roles, (i, g) -> null, QUIET_SUSPICION_MS);
    }

    TestCluster(final int members, final String transport, final SpindleOptions options,
        final IntFunction<List<SubgroupSpec>> specs, final IntFunction<Role> roles, final long suspicionMs)
        throws Exception
    {
        this(members, transport, options, specs, roles, (i, g) -> null, suspicionMs);
    }

    TestCluster(final int members, final String transport, final SpindleOptions options,
        final IntFunction<List<SubgroupSpec>> specs, final IntFunction<Role> roles, final Registries registries)
        throws Exception
    {
        this(members, transport, options, specs, roles, registries, QUIET_SUSPICION_MS);
    }

    /** @param suspicionMs the members' suspicion timeout ({@link #QUIET_SUSPICION_MS}, {@link #CRASH_SUSPICION_MS}). */
    TestCluster(final int members, final String transport, final SpindleOptions options,
        final IntFunction<List<SubgroupSpec>> specs, final IntFunction<Role> roles, final Registries registries,
        final long suspicionMs) throws Exception
    {
        this.transport = transport;
        this.groupName = "t" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 4);
        final ExecutorService pool = Executors.newFixedThreadPool(members);
        try
        {
            final List<Future<Group>> fs = new ArrayList<>();
            for (int i = 0; i < members; i++)
            {
                final Recorder rec = new Recorder();
                recorders.add(rec);
                final int idx = i;
                final GroupConfig cfg = GroupConfig.defaults(groupName).withTransport(transport)
                    .withRegistry(transport.endsWith("local") ? "local" : "shm")
                    .withMemberId(100 + i).withContact(i == 0, members).withSpindle(options)
                    .withIdle(50, 10, 50_000)
                    .withFailureDetection(cfg0HeartbeatMs(), suspicionMs)
                    .withEndpoint("tcp".equals(transport) || "mixed".equals(transport)
                        ? "127.0.0.1:" + freePort() : "");
                final List<Group.SubgroupRegistration> regs = new ArrayList<>();
                for (final SubgroupSpec s : specs.apply(i))
                {
                    regs.add(new Group.SubgroupRegistration(s, roles.apply(i), rec));
                }
                final io.sirocco.multicast.view.MembershipRegistry registry = registries.of(i, groupName);
                fs.add(pool.submit(() -> Group.join(cfg, registry, regs, null, Duration.ofSeconds(30))));
            }
            for (final Future<Group> f : fs)
            {
                groups.add(f.get());
            }
        }
        finally
        {
            pool.shutdown();
        }
    }

    /** The default heartbeat period, kept: only the suspicion timeout varies between tests. */
    private long cfg0HeartbeatMs()
    {
        return GroupConfig.defaults(groupName).heartbeatPeriodMs();
    }

    static int freePort() throws java.io.IOException
    {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0))
        {
            return s.getLocalPort();
        }
    }

    /** Fails the test if any member's predicate thread died with an exception. */
    void assertHealthy()
    {
        for (final Group g : groups)
        {
            final Throwable t = g.predicateEngine().failure();
            if (t != null)
            {
                throw new AssertionError("predicate thread of member " + g.memberId() + " failed", t);
            }
        }
    }

    @Override
    public void close()
    {
        assertHealthy();
        for (final Group g : groups)
        {
            g.close();
        }
        LocalRegistry.forget(groupName);
        ShmRegistry.destroy(groupName);
    }
}
