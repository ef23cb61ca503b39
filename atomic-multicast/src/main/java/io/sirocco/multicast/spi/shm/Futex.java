package io.sirocco.multicast.spi.shm;

import java.util.Locale;
import io.sirocco.multicast.config.MulticastSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * Linux {@code futex(2)} on a 32-bit word of shared memory, through {@code syscall(SYS_futex, ...)} bound with
 * {@code java.lang.foreign}: the one way a thread of one process can sleep until a thread of another process says "look
 * again" without a socket or a pipe. Only {@code FUTEX_WAIT} and {@code FUTEX_WAKE}, without the private flag (the word
 * lives in a {@code MAP_SHARED} mapping other processes map too).
 *
 * <p>{@link #available()} is false off Linux x86_64/aarch64, when the symbol or native access is missing, or after the
 * first call that failed in a way other than the expected {@code EAGAIN} (the word changed), {@code ETIMEDOUT} and
 * {@code EINTR}; callers then fall back to timed parking. Stateless apart from that switch; {@link #await} needs a
 * per-thread {@link Timeout} (no allocation per call).
 */
public final class Futex
{
    private static final Logger LOG = LoggerFactory.getLogger(Futex.class);

    private static final int FUTEX_WAIT = 0;
    private static final int FUTEX_WAKE = 1;
    private static final int EAGAIN = 11;
    private static final int EINTR = 4;
    private static final int ETIMEDOUT = 110;

    private static final long SYS_FUTEX = sysFutex();
    private static final MethodHandle SYSCALL = bind();
    private static final StructLayout ERRNO_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = ERRNO_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    private static volatile boolean broken = SYSCALL == null;

    private Futex()
    {
    }

    /** @return whether futex calls work here (Linux, symbol found, no unexpected failure so far). */
    public static boolean available()
    {
        return !broken;
    }

    /**
     * Sleeps while the 32-bit word at {@code address} still holds {@code expected}, at most {@code timeoutNs}. Returns at
     * once when the word differs; may return early (a signal, a spurious wake). Never throws.
     *
     * @param address   address of a 4-byte aligned word in a shared mapping.
     * @param expected  the value read before deciding to sleep.
     * @param timeoutNs longest sleep, > 0.
     * @param t         the calling thread's timeout buffer.
     * @return false when the call failed unexpectedly (then {@link #available()} is false and nothing slept).
     */
    public static boolean await(final long address, final int expected, final long timeoutNs, final Timeout t)
    {
        if (broken)
        {
            return false;
        }
        t.set(timeoutNs);
        try
        {
            final long rc = (long)SYSCALL.invokeExact(t.errno, SYS_FUTEX, address, (long)FUTEX_WAIT,
                (long)expected, t.spec.address(), 0L, 0L);
            if (rc < 0)
            {
                final int errno = (int)ERRNO.get(t.errno, 0L);
                if (errno != EAGAIN && errno != ETIMEDOUT && errno != EINTR)
                {
                    fail("FUTEX_WAIT", errno);
                    return false;
                }
            }
            return true;
        }
        catch (final Throwable ex)
        {
            fail("FUTEX_WAIT", ex);
            return false;
        }
    }

    /**
     * Wakes up to {@code count} threads sleeping in {@link #await} on the word at {@code address}. Never throws.
     *
     * @param address the word.
     * @param count   how many sleepers to wake.
     * @param errno   a buffer of {@link #errnoBuffer()} owned by the calling thread.
     * @return the number woken, or -1 when the call failed (then {@link #available()} is false).
     */
    public static int wake(final long address, final int count, final MemorySegment errno)
    {
        if (broken)
        {
            return -1;
        }
        try
        {
            final long rc = (long)SYSCALL.invokeExact(errno, SYS_FUTEX, address, (long)FUTEX_WAKE, (long)count, 0L, 0L,
                0L);
            if (rc < 0)
            {
                fail("FUTEX_WAKE", (int)ERRNO.get(errno, 0L));
                return -1;
            }
            return (int)rc;
        }
        catch (final Throwable ex)
        {
            fail("FUTEX_WAKE", ex);
            return -1;
        }
    }

    /** @return a fresh buffer for the captured {@code errno} (allocate once per thread or per owner). */
    public static MemorySegment errnoBuffer()
    {
        return Arena.ofAuto().allocate(ERRNO_STATE);
    }

    /** A thread's relative-timeout {@code struct timespec} and errno buffer, reused by every {@link #await}. */
    public static final class Timeout
    {
        private final MemorySegment spec = Arena.ofAuto().allocate(16, 8);
        private final MemorySegment errno = errnoBuffer();

        void set(final long ns)
        {
            spec.set(ValueLayout.JAVA_LONG, 0, ns / 1_000_000_000L);
            spec.set(ValueLayout.JAVA_LONG, 8, ns % 1_000_000_000L);
        }
    }

    private static void fail(final String op, final int errno)
    {
        if (!broken)
        {
            broken = true;
            LOG.warn("{} failed with errno {}: shared-memory doorbells fall back to timed parking", op, errno);
        }
    }

    private static void fail(final String op, final Throwable ex)
    {
        if (!broken)
        {
            broken = true;
            LOG.warn("{} failed: shared-memory doorbells fall back to timed parking", op, ex);
        }
    }

    private static long sysFutex()
    {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux"))
        {
            return -1;
        }
        return switch (System.getProperty("os.arch", ""))
        {
            case "amd64", "x86_64" -> 202;
            case "aarch64" -> 98;
            default -> -1;
        };
    }

    private static MethodHandle bind()
    {
        if (SYS_FUTEX < 0 || MulticastSettings.shmFutexOff())
        {
            return null;
        }
        try
        {
            final Linker linker = Linker.nativeLinker();
            final MemorySegment fn = linker.defaultLookup().find("syscall").orElse(null);
            if (fn == null)
            {
                return null;
            }
            // long syscall(long number, ...): every variadic argument passed as a full register-width long.
            final FunctionDescriptor d = FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
                ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
                ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG);
            return linker.downcallHandle(fn, d, Linker.Option.firstVariadicArg(1),
                Linker.Option.captureCallState("errno"));
        }
        catch (final RuntimeException | LinkageError ex)
        {
            LOG.info("futex(2) unavailable ({}): shared-memory doorbells use timed parking", ex.toString());
            return null;
        }
    }
}
