package io.sirocco.multicast;

// Size: about 630 lines: the module's public face for membership (join, register, promote, leave, halt, fault
// hooks) plus the two callbacks the view manager and the rejoiner hold (ViewHost, RejoinHost), which must see this
// member's private state; the mechanisms live in FirstView, MembershipNotices, LocalMembers, ViewTotals and
// ShutdownLeave.

import io.sirocco.multicast.fault.FaultInjector;
import io.sirocco.multicast.model.DeliveryHandler;
import io.sirocco.multicast.model.Member;
import io.sirocco.multicast.model.Role;
import io.sirocco.multicast.model.SubgroupSpec;
import io.sirocco.multicast.model.View;
import io.sirocco.multicast.spi.RowTransportContext;
import io.sirocco.multicast.predicate.PredicateEngine;
import io.sirocco.multicast.smc.SubgroupEngine;
import io.sirocco.multicast.smc.SubgroupStats;
import io.sirocco.multicast.spi.RowTransportProvider;
import io.sirocco.multicast.spi.RowTransportProviders;
import io.sirocco.multicast.view.LocalRegistry;
import io.sirocco.multicast.view.MembershipRegistry;
import io.sirocco.multicast.view.ShmRegistry;
import io.sirocco.multicast.view.ViewContext;
import io.sirocco.multicast.view.ViewManager;
import io.sirocco.transport.agent.Agents;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/**
 * This process's membership in one group (one DDS domain). Start with {@link #join}; get per-subgroup handles with
 * {@link #subgroup(String)}; register more subgroups later with {@link #register} (a view change); leave with
 * {@link #close()}.
 *
 * <p>One platform predicate thread per group runs every trigger: the subgroups' receive, delivery and send triggers
 * and the membership protocol ({@link ViewManager}). Delivery and membership upcalls run on it.
 */
public final class Group implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(Group.class);
    private static final long SELF_PID = ProcessHandle.current().pid();

    private final GroupConfig config;
    private final RowTransportProvider provider;
    private final MembershipRegistry registry;
    private final PredicateEngine engine;
    private final ViewManager viewManager;
    private final Map<String, Subgroup> handles = new ConcurrentHashMap<>();
    private final List<Member.Registration> registrations = new CopyOnWriteArrayList<>();
    private final String hostName;
    private final MembershipNotices notices;
    /** Whether this member still runs, for {@link LocalMembers}. */
    private final BooleanSupplier running;
    /** Fault injector (tests); read on the predicate thread at each fault point. */
    private volatile FaultInjector faults = FaultInjector.NONE;
    private volatile View view;
    private volatile boolean closed;
    private volatile String exclusion;
    private long version;
    private final ViewTotals totals = new ViewTotals();
    private final Rejoiner rejoiner;
    /** Predicate thread (then {@link #close()}): the last view's context was closed by the rejoiner. */
    private volatile boolean contextClosed;

    private Group(final GroupConfig config, final MembershipRegistry registry)
    {
        this.config = config;
        this.provider = RowTransportProviders.byName(config.transport());
        this.registry = registry != null ? registry : "local".equals(config.registry())
            ? LocalRegistry.forGroup(config.groupName()) : new ShmRegistry(config.groupName());
        this.hostName = Member.localHost();
        this.notices = new MembershipNotices(config.memberId());
        this.engine = new PredicateEngine("mcast-" + config.groupName() + "-" + config.memberId(),
            config.spinPasses(), config.yieldPasses(), config.maxParkNs());
        this.running = () -> !closed && engine.failure() == null;
        this.viewManager = new ViewManager(new ViewHost(), config.heartbeatPeriodMs(), config.suspicionTimeoutMs(),
            config.registryPollMs());
        this.rejoiner = new Rejoiner(new RejoinHost(), config.groupName(), config.memberId(),
            Math.max(config.registryPollMs(), 50));
    }

    /**
     * A subgroup this member takes part in.
     *
     * @param spec    the subgroup's shape.
     * @param role    writer, reader or both.
     * @param handler delivery upcall (required even for pure writers, which still receive to order).
     */
    public record SubgroupRegistration(SubgroupSpec spec, Role role, DeliveryHandler handler)
    {
    }

    /**
     * Joins a group: announces this member and its subgroups in the registry, then waits for a view that contains it
     * (the contact forms the first view once {@link GroupConfig#initialMembers()} members announced; later joiners
     * are added by a view change run by the leader).
     *
     * @param config        this member's configuration.
     * @param subgroups     subgroups to register now.
     * @param listener      view-change listener (may be null).
     * @param timeout       how long to wait for a view.
     * @return the joined group.
     * @throws TimeoutException when no view containing this member appeared in time.
     */
    public static Group join(final GroupConfig config, final List<SubgroupRegistration> subgroups,
        final MembershipListener listener, final Duration timeout) throws TimeoutException
    {
        return join(config, null, subgroups, listener, timeout);
    }

    /**
     * Joins a group through a registry the caller made (for example a {@code contact.NetRegistry}, which members on
     * other hosts reach over the network); {@link GroupConfig#registry()} is then ignored. The group closes the
     * registry when it leaves, or when the join fails.
     *
     * @param config    this member's configuration.
     * @param registry  the membership registry, or null for the one {@link GroupConfig#registry()} names.
     * @param subgroups subgroups to register now.
     * @param listener  view-change listener (may be null).
     * @param timeout   how long to wait for a view.
     * @return the joined group.
     * @throws TimeoutException when no view containing this member appeared in time.
     */
    public static Group join(final GroupConfig config, final MembershipRegistry registry,
        final List<SubgroupRegistration> subgroups, final MembershipListener listener, final Duration timeout)
        throws TimeoutException
    {
        final Group g = new Group(config, registry);
        if (listener != null)
        {
            g.notices.add(listener);
        }
        for (final SubgroupRegistration r : subgroups)
        {
            g.handles.put(r.spec().name(), new Subgroup(r.spec().name(), r.role(), r.handler()));
            g.registrations.add(new Member.Registration(r.spec(), r.role()));
        }
        g.start(timeout);
        return g;
    }

    private Member self()
    {
        return new Member(config.memberId(), hostName, ProcessHandle.current().pid(), config.endpoint(), version,
            new ArrayList<>(registrations), registry.contactAddress());
    }

    /**
     * Marks this member gone for good in the registry (it closed, or was excluded with rejoin off): should the view it
     * was last in be the group's latest (its other members all excluded themselves meanwhile), this member, whose
     * process may run on, must not keep them from re-forming the group ({@code view.Refounder}). Best effort: the
     * registry's directory may already be gone (a new first process of a domain removes a registry whose members are
     * all dead), and a member without the mark only delays a re-forming until its process exits.
     */
    private void markGone()
    {
        try
        {
            registry.markOut(selfLocked(), false);
        }
        catch (final RuntimeException ex)
        {
            LOG.debug("member {} of group {}: could not mark itself gone in the registry: {}", config.memberId(),
                config.groupName(), ex.toString());
        }
    }

    /** {@link #self()} from a thread other than a {@link #register} caller's (the registrations may change). */
    private synchronized Member selfLocked()
    {
        return self();
    }

    /**
     * @return false only for a member that surely no longer runs: on this host its process exited, or it is a member of
     *         this JVM whose group closed or halted or whose predicate thread died.
     */
    private boolean mayRun(final Member m)
    {
        if (!ViewManager.alive(m))
        {
            return false;
        }
        if (m.pid() != SELF_PID || !m.host().equals(hostName))
        {
            return true;
        }
        return LocalMembers.runs(config.groupName(), m.memberId());
    }

    private void start(final Duration timeout) throws TimeoutException
    {
        LocalMembers.add(config.groupName(), config.memberId(), running);
        provider.prepare(config.groupName(), new RowTransportContext.MemberAddress(
            config.memberId(), hostName, ProcessHandle.current().pid(), config.endpoint()));
        // A mark left by an earlier member of this id (it closed, or crashed while out) would count this one as out.
        registry.clearOut(config.memberId());
        final boolean founds = FirstView.announce(config, registry, self(), this::mayRun);
        final View first = FirstView.await(config, founds, registry, this::self,
            System.nanoTime() + timeout.toNanos());
        if (first == null)
        {
            LocalMembers.remove(config.groupName(), config.memberId(), running);
            registry.withdraw(config.memberId());
            registry.close();
            throw new TimeoutException("member " + config.memberId() + " of group " + config.groupName()
                + " found no view containing it within " + timeout + " (contact=" + config.contact()
                + ", registry=" + registryName() + ")");
        }
        final ViewContext ctx = build(first, first.rankOf(config.memberId()));
        viewManager.start(ctx);
        // Membership, view changes and rejoins block and close transports: never in a pass run inline by another
        // thread.
        engine.registerEngineOnly(viewManager, viewManager::gmsTrigger);
        engine.registerEngineOnly(rejoiner, rejoiner::trigger);
        installEngines(null, ctx);
        engine.start();
        ShutdownLeave.opened(this, "member " + config.memberId() + " of group '" + config.groupName() + "'",
            this::close);
        LOG.debug("member {} joined group {} in {}", config.memberId(), config.groupName(), first);
    }

    private String registryName()
    {
        final String address = registry.contactAddress();
        return registry.getClass().getSimpleName() + (address.isEmpty() ? "" : " at " + address);
    }

    private ViewContext build(final View v, final int rank)
    {
        return new ViewContext(config.groupName(), v, rank, provider, config.spindle(),
            name -> Optional.ofNullable(handles.get(name)).map(Subgroup::handler).orElse(null), engine::wake,
            (point, viewId, subgroup) -> faults.at(point, viewId, subgroup), engine);
    }

    private void installEngines(final ViewContext previous, final ViewContext next)
    {
        final View old = previous == null ? null : previous.view();
        if (previous != null)
        {
            engine.remove(previous);
            totals.retire(previous);
        }
        final Set<String> present = new HashSet<>();
        for (final SubgroupEngine e : next.engines())
        {
            engine.register(next, e::receiveTrigger);
            engine.register(next, e::deliveryTrigger);
            engine.register(next, e::sendTrigger);
            handles.get(e.name()).engine(e);
            present.add(e.name());
        }
        // Last of the view's triggers: a transport that coalesces a pass's flushes (tcp) sends them here.
        engine.register(next, next::endOfPass);
        handles.forEach((n, h) ->
        {
            if (!present.contains(n))
            {
                h.engine(null);
            }
        });
        view = next.view();
        notices.installed(old, next.view());
    }

    /**
     * Registers another subgroup (for example a new DDS writer or reader); takes effect with the next view, which the
     * leader starts when it sees the changed registration.
     *
     * @param registration the subgroup, role and handler.
     * @return the handle (answers {@link ClaimResult#VIEW_CHANGING} until the view containing it is installed).
     */
    public synchronized Subgroup register(final SubgroupRegistration registration)
    {
        final Subgroup h = new Subgroup(registration.spec().name(), registration.role(), registration.handler());
        if (handles.putIfAbsent(registration.spec().name(), h) != null)
        {
            throw new IllegalArgumentException("subgroup " + registration.spec().name() + " already registered by "
                + "member " + config.memberId());
        }
        registrations.add(new Member.Registration(registration.spec(), registration.role()));
        version++;
        registry.announce(self());
        return h;
    }

    /**
     * Gives this member the sending role in a subgroup it registered as a reader only (a DDS participant that had a
     * reader of a topic and now creates a writer of it); takes effect with the next view, like {@link #register}.
     * Until then {@link Subgroup#sendingEngine()} answers null for the promoted handle (no data path for its sends),
     * and claims answer {@link ClaimResult#VIEW_CHANGING}.
     *
     * @param name a subgroup this member registered.
     * @return the handle, now with role {@link Role#WRITER_READER}.
     */
    public synchronized Subgroup promoteToWriter(final String name)
    {
        final Subgroup h = handles.get(name);
        if (h == null)
        {
            throw new IllegalArgumentException("subgroup " + name + " is not registered by member " + config.memberId());
        }
        if (h.role().sends())
        {
            return h;
        }
        for (int i = 0; i < registrations.size(); i++)
        {
            final Member.Registration r = registrations.get(i);
            if (r.spec().name().equals(name))
            {
                registrations.set(i, new Member.Registration(r.spec(), Role.WRITER_READER));
            }
        }
        h.promote();
        version++;
        registry.announce(self());
        return h;
    }

    /**
     * What the JVM's shutdown hook runs if this group is still open then (an application's {@code main} returned
     * without closing it): by default {@link #close()}; an owner that must say goodbye first (a DDS participant
     * retracts its entities, so that the others do not take it for failed) gives its own close, which must end with
     * this group's.
     *
     * @param closer the owner's close.
     */
    public void closeOnShutdown(final Runnable closer)
    {
        ShutdownLeave.closer(this, Objects.requireNonNull(closer, "closer"));
    }

    public void addMembershipListener(final MembershipListener l)
    {
        notices.add(l);
    }

    /** @return this member's handle on a registered subgroup, or null. */
    public Subgroup subgroup(final String name)
    {
        return handles.get(name);
    }

    /** @return the current view. */
    public View view()
    {
        return view;
    }

    public long memberId()
    {
        return config.memberId();
    }

    public GroupConfig config()
    {
        return config;
    }

    /**
     * @return why this member was excluded (or left to merge into another group), or null while it is a member; with
     *         rejoin on ({@code sirocco.multicast.rejoin}, default true) it goes back to null once a view takes it back.
     */
    public String exclusion()
    {
        return exclusion;
    }

    /** @return the predicate engine (tests and benchmarks observe its failure state). */
    public PredicateEngine predicateEngine()
    {
        return engine;
    }

    /** Sum of every subgroup's statistics over all views so far (racy snapshot; benchmark use). */
    public SubgroupStats stats()
    {
        return totals.stats(viewManager.context());
    }

    /** @return row pushes issued so far, all views (racy snapshot). */
    public long pushCount()
    {
        return totals.pushCount(viewManager.context());
    }

    /**
     * Installs a fault injector (fault-injection tests): it is called on the predicate thread at each
     * {@link io.sirocco.multicast.fault.FaultPoint} this member reaches, and may crash the member there by throwing
     * {@link io.sirocco.multicast.fault.InjectedCrash}.
     *
     * @param injector the injector, or {@link io.sirocco.multicast.fault.FaultInjector#NONE}.
     */
    public void faultInjector(final FaultInjector injector)
    {
        faults = Objects.requireNonNull(injector, "injector");
    }

    /**
     * Fault injection (tests): at its next pass this member suspects every other member at once
     * ({@link ViewManager#suspectEveryoneOnce}).
     */
    void suspectEveryoneOnce()
    {
        viewManager.suspectEveryoneOnce();
    }

    /**
     * Stops this member abruptly, as a crash would: the predicate thread stops, nothing is pushed or cleaned up, the
     * others detect it through the heartbeat. For fault-injection tests in one JVM.
     */
    public void halt()
    {
        closed = true;
        ShutdownLeave.closed(this);
        LocalMembers.remove(config.groupName(), config.memberId(), running);
        engine.close();
        handles.values().forEach(Subgroup::close);
    }

    /** Leaves the group: the others remove this member with a view change. */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        ShutdownLeave.closed(this);
        viewManager.requestLeave();
        engine.wake();
        final long deadline = System.nanoTime() + 2_000_000_000L;
        while (!viewManager.left() && exclusion == null && engine.failure() == null && System.nanoTime() < deadline
            && engine.thread().isAlive())
        {
            sleepQuietly(1);
        }
        engine.close();
        handles.values().forEach(Subgroup::close);
        final ViewContext ctx = viewManager.context();
        if (ctx != null && !contextClosed)
        {
            closeWhenEngineStopped(ctx);
        }
        LocalMembers.remove(config.groupName(), config.memberId(), running);
        if (!viewManager.left())
        {
            // Not removed by a view change: the mark tells a re-forming group that this member will not come back.
            markGone();
        }
        // The last member that leaves removes the group's registry (its shm directory), so nothing stays behind.
        registry.leave(config.memberId(), this::mayRun);
        registry.close();
        provider.left(config.groupName(), config.memberId());
    }

    /**
     * Closes (unmaps) the view's table once no predicate pass can touch it. The engine's close waits 10 s for its
     * thread; a thread still running then (a listener upcall that blocks, a machine starved of CPU) would fault on an
     * unmapped table and stop with an error, so its table is closed by a helper thread when it has ended instead.
     */
    private void closeWhenEngineStopped(final ViewContext ctx)
    {
        final Thread engineThread = engine.thread();
        if (!engineThread.isAlive())
        {
            ctx.close();
            return;
        }
        LOG.warn("group '{}' member {}: the predicate thread is still running 10 s after close; its view's table is "
            + "closed when it ends", config.groupName(), config.memberId());
        Agents.threadFactory("close-" + config.groupName() + "-" + config.memberId()).newThread(() ->
        {
            try
            {
                engineThread.join();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return;
            }
            ctx.close();
        }).start();
    }

    private static void sleepQuietly(final long ms)
    {
        try
        {
            Thread.sleep(ms);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Predicate thread: this member is out of its view. Without rejoin every subgroup closes; with it the handles only
     * lose their engine (claims answer VIEW_CHANGING) until a view takes the member back in.
     */
    private void out(final String reason)
    {
        exclusion = reason;
        final ViewContext ctx = viewManager.context();
        if (ctx != null)
        {
            engine.remove(ctx);
        }
        if (rejoiner.enabled())
        {
            handles.values().forEach(h -> h.engine(null));
        }
        else
        {
            handles.values().forEach(Subgroup::close);
            markGone();
        }
        notices.excluded(reason);
    }

    /** What the {@link Rejoiner} may do to this group; predicate thread. */
    private final class RejoinHost implements Rejoiner.Host
    {
        @Override
        public View view()
        {
            return view;
        }

        @Override
        public boolean closed()
        {
            return closed;
        }

        @Override
        public ViewManager viewManager()
        {
            return viewManager;
        }

        @Override
        public MembershipRegistry registry()
        {
            return registry;
        }

        @Override
        public Member self()
        {
            return selfLocked();
        }

        @Override
        public void out(final String reason)
        {
            Group.this.out(reason);
        }

        @Override
        public void closeLastView()
        {
            final ViewContext ctx = viewManager.context();
            if (ctx != null && !contextClosed)
            {
                ctx.close();
                contextClosed = true;
            }
            provider.lookingForGroup(config.groupName(), config.memberId());
        }

        @Override
        public boolean mayRun(final Member member)
        {
            return Group.this.mayRun(member);
        }

        @Override
        public void rejoined(final View next)
        {
            final ViewContext ctx = build(next, next.rankOf(config.memberId()));
            viewManager.restart(ctx);
            contextClosed = false;
            exclusion = null;
            notices.rejoined(next);
            installEngines(null, ctx);
        }
    }

    private final class ViewHost implements ViewManager.Host
    {
        @Override
        public ViewContext build(final View v, final int myRank)
        {
            return Group.this.build(v, myRank);
        }

        @Override
        public void installed(final ViewContext previous, final ViewContext next)
        {
            installEngines(previous, next);
        }

        @Override
        public void excluded(final String reason)
        {
            out(reason);
            rejoiner.excluded(reason);
        }

        @Override
        public MembershipRegistry registry()
        {
            return registry;
        }

        @Override
        public long memberId()
        {
            return config.memberId();
        }
    }
}
