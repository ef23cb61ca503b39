package io.sirocco.multicast.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.sirocco.transport.config.Setting;
import io.sirocco.transport.config.Settings;
import io.sirocco.transport.config.SettingsCatalog;

/**
 * The settings of atomic-multicast (keys {@code sirocco.multicast.*}, environment {@code SIROCCO_MULTICAST_*}): the
 * membership layer, the row transports and the protocol's latency switches. {@link io.sirocco.multicast.GroupConfig}
 * stays the builder applications call; these are the process-wide switches and defaults behind it.
 *
 * <p>Stateless: each accessor reads its setting through {@link Settings} when called (the classes that use a
 * setting call it once, when they are built, so a test may set a property before it builds a group). Thread-safe.
 */
public final class MulticastSettings implements SettingsCatalog
{
    /** Root of the shared-memory group directories. */
    public static final String SHM_DIR = "sirocco.multicast.shm.dir";
    /** Turns the futex doorbell off (idle predicate threads then park on a timer). */
    public static final String SHM_FUTEX_OFF = "sirocco.multicast.shm.futexOff";
    /** tcp: one frame per predicate pass per peer. */
    public static final String TCP_COALESCE = "sirocco.multicast.tcp.coalesce";
    /** tcp: several changed rows in one run frame. */
    public static final String TCP_RUN_FRAME = "sirocco.multicast.tcp.runFrame";
    /** tcp: bytes queued for one slow peer before it is suspected. */
    public static final String TCP_PEER_BACKLOG_BYTES = "sirocco.multicast.tcp.peerBacklogBytes";
    /** tcp: frames applied on the receiving thread. */
    public static final String TCP_INLINE_RECEIVE = "sirocco.multicast.tcp.inlineReceive";
    /** tcp: longest park of the endpoint's idle receive thread. */
    public static final String TCP_MAX_PARK_NS = "sirocco.multicast.tcp.maxParkNs";
    /** Overrides the host identity (emulated hosts). */
    public static final String HOST = "sirocco.multicast.host";
    /** An excluded or partitioned member looks for its group again. */
    public static final String REJOIN = "sirocco.multicast.rejoin";
    /** Network contact: how long a leader waits before it merges into another group of the name. */
    public static final String MERGE_DELAY_MS = "sirocco.multicast.mergeDelayMs";
    /** The receiving thread runs the view's triggers (tcp, mixed). */
    public static final String INLINE_RECEIVE_PASS = "sirocco.multicast.inlineReceivePass";
    /** A committing thread pushes its commit itself. */
    public static final String INLINE_COMMIT_PUSH = "sirocco.multicast.inlineCommitPush";
    /** Event-driven delivery: the idle gate of the predicate thread. */
    public static final String EVENT_DRIVEN_IDLE_GATE = "sirocco.multicast.eventDrivenIdleGate";
    /** Event-driven delivery: longest park of an idle predicate thread. */
    public static final String EVENT_DRIVEN_PARK_NS = "sirocco.multicast.eventDrivenParkNs";

    /** How many times the suspicion timeout a member that beats with long gaps (a loaded host) may be given. */
    public static final String SUSPICION_STRETCH = "sirocco.multicast.suspicionStretch";
    /** Default of {@value #SUSPICION_STRETCH}. */
    public static final long DEFAULT_SUSPICION_STRETCH = 4;
    /** Default of {@value #MERGE_DELAY_MS}. */
    public static final long DEFAULT_MERGE_DELAY_MS = 5_000;

    @Override
    public String module()
    {
        return "multicast";
    }

    @Override
    public List<Setting> settings()
    {
        return List.of(
            new Setting(SHM_DIR, "/dev/shm, else java.io.tmpdir",
                "root of the shared-memory group directories (sirocco-<group>/)"),
            new Setting(SHM_FUTEX_OFF, "false", "shm: no futex doorbell; idle predicate threads park on a timer"),
            new Setting(TCP_COALESCE, "true", "tcp rows: one frame per predicate pass per peer"),
            new Setting(TCP_RUN_FRAME, "true", "tcp rows: changed rows of a pass in one run frame (with coalesce)"),
            new Setting(TCP_PEER_BACKLOG_BYTES, "8388608",
                "tcp rows: bytes queued for one peer before it is suspected"),
            new Setting(TCP_INLINE_RECEIVE, "true", "tcp rows: frames applied on the receiving thread"),
            new Setting(TCP_MAX_PARK_NS, "50000", "tcp rows: longest park of the endpoint's idle receiving thread"),
            new Setting(HOST, "computed", "host identity override (members with one identity share memory)"),
            new Setting(REJOIN, "true", "an excluded or partitioned member looks for its group again"),
            new Setting(SUSPICION_STRETCH, Long.toString(DEFAULT_SUSPICION_STRETCH),
                "a member beating with long gaps gets up to this many times the suspicion timeout (1: off)"),
            new Setting(MERGE_DELAY_MS, Long.toString(DEFAULT_MERGE_DELAY_MS),
                "network contact: a leader's wait before merging into another group of the same name"),
            new Setting(INLINE_RECEIVE_PASS, "true", "the receiving thread runs the view's triggers (tcp, mixed)"),
            new Setting(INLINE_COMMIT_PUSH, "false", "a committing thread pushes its commit itself"),
            new Setting(EVENT_DRIVEN_IDLE_GATE, "true", "event-driven delivery: the predicate thread's idle gate"),
            new Setting(EVENT_DRIVEN_PARK_NS, "1000000",
                "event-driven delivery: longest park of an idle predicate thread"));
    }

    /** {@value #SHM_DIR}: {@code /dev/shm} when it exists, else the temporary directory. */
    public static Path shmDirectory()
    {
        final String override = Settings.string(SHM_DIR, null);
        if (override != null)
        {
            return Path.of(override);
        }
        final Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
    }

    /** {@value #SHM_FUTEX_OFF}. */
    public static boolean shmFutexOff()
    {
        return Settings.booleanValue(SHM_FUTEX_OFF, false);
    }

    /** {@value #TCP_COALESCE}. */
    public static boolean tcpCoalesce()
    {
        return Settings.booleanValue(TCP_COALESCE, true);
    }

    /** {@value #TCP_RUN_FRAME}. */
    public static boolean tcpRunFrame()
    {
        return Settings.booleanValue(TCP_RUN_FRAME, true);
    }

    /** {@value #TCP_PEER_BACKLOG_BYTES}. */
    public static long tcpPeerBacklogBytes()
    {
        return Settings.longValue(TCP_PEER_BACKLOG_BYTES, 8L << 20);
    }

    /** {@value #TCP_INLINE_RECEIVE}. */
    public static boolean tcpInlineReceive()
    {
        return Settings.booleanValue(TCP_INLINE_RECEIVE, true);
    }

    /** {@value #TCP_MAX_PARK_NS}. */
    public static long tcpMaxParkNs()
    {
        return Settings.longValue(TCP_MAX_PARK_NS, 50_000);
    }

    /** {@value #HOST}, or null when unset or blank. */
    public static String host()
    {
        final String host = Settings.string(HOST, null);
        return host == null || host.isBlank() ? null : host;
    }

    /** {@value #REJOIN}. */
    public static boolean rejoin()
    {
        return Settings.booleanValue(REJOIN, true);
    }

    /** {@value #SUSPICION_STRETCH} (at least 1). */
    public static long suspicionStretch()
    {
        return Math.max(1, Settings.longValue(SUSPICION_STRETCH, DEFAULT_SUSPICION_STRETCH));
    }

    /** {@value #MERGE_DELAY_MS}. */
    public static long mergeDelayMs()
    {
        return Settings.longValue(MERGE_DELAY_MS, DEFAULT_MERGE_DELAY_MS);
    }

    /** {@value #INLINE_RECEIVE_PASS}. */
    public static boolean inlineReceivePass()
    {
        return Settings.booleanValue(INLINE_RECEIVE_PASS, true);
    }

    /** {@value #INLINE_COMMIT_PUSH}. */
    public static boolean inlineCommitPush()
    {
        return Settings.booleanValue(INLINE_COMMIT_PUSH, false);
    }

    /** {@value #EVENT_DRIVEN_IDLE_GATE}. */
    public static boolean eventDrivenIdleGate()
    {
        return Settings.booleanValue(EVENT_DRIVEN_IDLE_GATE, true);
    }

    /** {@value #EVENT_DRIVEN_PARK_NS}. */
    public static long eventDrivenParkNs()
    {
        return Settings.longValue(EVENT_DRIVEN_PARK_NS, 1_000_000L);
    }
}
