package io.sirocco.multicast.view;

import io.sirocco.multicast.config.MulticastSettings;
import io.sirocco.multicast.model.View;
import io.sirocco.multicast.smc.SpindleOptions;
import io.sirocco.multicast.smc.SubgroupEngine;
import io.sirocco.multicast.spi.RowTransport;
import io.sirocco.multicast.spi.RowTransportContext;
import io.sirocco.multicast.spi.RowTransportProvider;
import io.sirocco.multicast.sst.SstLayout;
import io.sirocco.multicast.sst.SstTable;
import io.sirocco.multicast.model.DeliveryHandler;
import io.sirocco.multicast.fault.FaultInjector;
import io.sirocco.multicast.predicate.InlineRun;
import io.sirocco.multicast.predicate.PredicateEngine;
import io.sirocco.multicast.predicate.Trigger;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Everything one view builds: the row layout, the table and its transport, and an SMC engine for each subgroup this
 * member belongs to. Built and closed on the predicate thread; a new view builds a new context (new table, new
 * layout), the old one is closed once the new one is installed.
 */
public final class ViewContext implements AutoCloseable
{
    /**
     * System property, read when a view is built: a transport's receiving thread that applied a push runs the view's
     * triggers itself when no other thread runs a pass (tcp and mixed rows; default true).
     */
    public static final String INLINE_RECEIVE_PASS_PROP = MulticastSettings.INLINE_RECEIVE_PASS;
    /**
     * System property, read when a view is built: on copying transports (tcp, mixed) a committing thread runs the send
     * trigger and the end of pass itself when no other thread runs a pass and the engine thread is parked (ORDERED
     * subgroups; default false: measured, it helps a ping/pong only while every core is busy, see docs/benchmarks.md).
     */
    public static final String INLINE_COMMIT_PUSH_PROP = MulticastSettings.INLINE_COMMIT_PUSH;

    final View view;
    final int myRank;
    final SstLayout layout;
    final RowTransport transport;
    final SstTable table;
    final SubgroupEngine[] engines;
    final String[] engineNames;
    /** The group's fault injector: the view manager calls it at the view change's own fault points. */
    final FaultInjector faults;
    /** The group's predicate engine, or null. */
    private final PredicateEngine passes;

    /**
     * @param groupName group name.
     * @param view      the view.
     * @param myRank    this member's rank in it.
     * @param provider  row transport provider.
     * @param options   Spindle switches.
     * @param handlers  delivery handler of a subgroup this member registered, by name (null if not registered).
     * @param doorbell  wakes the predicate thread.
     * @param faults    fault injector of the group ({@link FaultInjector#NONE} outside fault-injection tests).
     * @param passes    the group's predicate engine, whose inline passes receiving and committing threads may run
     *                  (see the two properties above), or null for the doorbell only.
     */
    public ViewContext(
        final String groupName,
        final View view,
        final int myRank,
        final RowTransportProvider provider,
        final SpindleOptions options,
        final Function<String, DeliveryHandler> handlers,
        final Runnable doorbell,
        final FaultInjector faults,
        final PredicateEngine passes)
    {
        this.view = view;
        this.myRank = myRank;
        this.faults = faults;
        this.passes = passes;
        this.layout = layoutOf(view);
        final boolean inlineReceive = passes != null
            && MulticastSettings.inlineReceivePass();
        this.transport = openTransport(groupName, provider, doorbell, inlineReceive);
        this.table = new SstTable(transport.table(), layout.rowLengthBytes());
        if (passes != null)
        {
            wirePasses(passes, inlineReceive);
        }
        final List<SubgroupEngine> es = new ArrayList<>();
        final List<String> names = new ArrayList<>();
        final List<View.SubgroupInfo> sgs = view.subgroups();
        for (int i = 0; i < sgs.size(); i++)
        {
            final View.SubgroupInfo info = sgs.get(i);
            final DeliveryHandler h = handlers.apply(info.name());
            if (!isMember(info) || h == null)
            {
                continue;
            }
            es.add(buildEngine(i, info, options, h, doorbell));
            names.add(info.name());
        }
        this.engines = es.toArray(new SubgroupEngine[0]);
        this.engineNames = names.toArray(new String[0]);
        table.setRelease(myRank, SstLayout.VIEW_ID, view.viewId());
        transport.pushCounters(SstLayout.VIEW_ID, 1);
        transport.flush();
    }

    /** The row layout of {@code view}'s subgroups. */
    private static SstLayout layoutOf(final View view)
    {
        final List<View.SubgroupInfo> sgs = view.subgroups();
        final int g = sgs.size();
        final int[] senders = new int[g];
        final int[] windows = new int[g];
        final int[] slots = new int[g];
        final int[] max = new int[g];
        for (int i = 0; i < g; i++)
        {
            senders[i] = sgs.get(i).senderRanks().length;
            windows[i] = sgs.get(i).spec().windowSize();
            slots[i] = sgs.get(i).spec().slotSizeBytes();
            max[i] = sgs.get(i).spec().maxMessageBytes();
        }
        return new SstLayout(senders, windows, slots, max);
    }

    private RowTransport openTransport(final String groupName, final RowTransportProvider provider,
        final Runnable doorbell, final boolean inlineReceive)
    {
        final List<RowTransportContext.MemberAddress> addresses = new ArrayList<>();
        view.members().forEach(m -> addresses.add(
            new RowTransportContext.MemberAddress(m.memberId(), m.host(), m.pid(), m.endpoint())));
        final Runnable received = inlineReceive ? passes::tryRunInline : doorbell;
        return provider.open(new RowTransportContext(
            groupName, view.viewId(), myRank, addresses, layout.rowLengthBytes(), doorbell, received));
    }

    /** Tells the predicate engine how this view's transport wakes it and groups an inline run's pushes. */
    private void wirePasses(final PredicateEngine passes, final boolean inlineReceive)
    {
        // The receiving thread does the work the predicate thread would poll for: let that one idle calmly.
        passes.eventDriven(inlineReceive && transport.eventDriven());
        // Shared memory: sleep on this member's bell while idle; the others' pushes ring it.
        passes.idleWait(transport.idleWait());
        // An inline run's passes (receive, deliver, a listener's answer, the counters after it) leave as one
        // frame: one write and one wake-up of the peer per hop instead of one per pass.
        final RowTransport t = transport;
        passes.inlineRun(new InlineRun()
        {
            @Override
            public void begin()
            {
                t.beginPassRun();
            }

            @Override
            public void end()
            {
                t.endPassRun();
            }
        });
    }

    private boolean isMember(final View.SubgroupInfo info)
    {
        boolean member = false;
        for (final int r : info.memberRanks())
        {
            member |= r == myRank;
        }
        return member;
    }

    private SubgroupEngine buildEngine(final int i, final View.SubgroupInfo info, final SpindleOptions options,
        final DeliveryHandler h, final Runnable doorbell)
    {
        final long[] ids = new long[info.senderRanks().length];
        for (int k = 0; k < ids.length; k++)
        {
            ids[k] = view.members().get(info.senderRanks()[k]).memberId();
        }
        final SubgroupEngine engine = new SubgroupEngine(info.name(), info.spec().mode(),
            info.spec().windowSize(), info.spec().slotSizeBytes(), info.spec().maxMessageBytes(), i, layout,
            info.senderRanks(), ids, info.memberRanks(), myRank, transport, options, h, doorbell);
        engine.faultInjector(faults, view.viewId());
        if (passes != null && !transport.sharesRows()
            && MulticastSettings.inlineCommitPush())
        {
            inlineCommitPush(engine, passes);
        }
        return engine;
    }

    private void inlineCommitPush(final SubgroupEngine engine, final PredicateEngine passes)
    {
        // One trigger object per engine and view; the commit path allocates nothing.
        final Trigger push = () ->
        {
            final boolean progress = engine.sendTrigger();
            transport.endOfPass();
            return progress;
        };
        engine.inlinePush(() ->
        {
            // From inside a pass (a listener's answer) the pass in progress sends it.
            // A running engine thread sends it in its next pass, batched with whatever else was committed
            // meanwhile: pushing every commit from the committing thread cut tcp send batches from ~48 to
            // ~2.4 messages and the batching-on rate by 2.4x (docs/benchmarks.md). Only a parked engine
            // thread, which a ping/pong round trip would otherwise have to wake, is spared the work.
            if (!passes.onEngineThread() && passes.isParked())
            {
                passes.tryRunInline(push);
                // What else the commit causes (a lone member delivering its own message) stays with the
                // engine thread, rung as before; the frame is already out.
                passes.wake();
            }
        });
    }

    public View view()
    {
        return view;
    }

    public SubgroupEngine[] engines()
    {
        return engines;
    }

    /**
     * Predicate thread, registered after this view's subgroup triggers: sends what the transport deferred this pass.
     *
     * @return false: sending deferred pushes is not progress of its own.
     */
    public boolean endOfPass()
    {
        transport.endOfPass();
        return false;
    }

    public long pushCount()
    {
        return transport.pushCount();
    }

    @Override
    public void close()
    {
        if (passes != null)
        {
            passes.clearIdleWait(transport.idleWait());
        }
        transport.close();
    }
}
