package io.sirocco.ib.bench;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Arrays;

/**
 * Not a test: the cost of one FFM downcall on this machine, the per-verb overhead the bindings add in front of the
 * NIC. Calls libc's {@code labs} (a leaf function that does almost nothing) through a handle bound like
 * {@code ContextOps} binds {@code post_send}: a function pointer, {@code Linker.Option.critical(false)}; and through a
 * plain handle for comparison. Prints the median of 5 runs of 10 M calls for each, in ns per call.
 *
 * <pre>
 * java -cp ib-native/target/test-classes io.sirocco.ib.bench.DowncallCostBench
 * </pre>
 */
public final class DowncallCostBench
{
    private static final int CALLS = 10_000_000;
    private static final int RUNS = 5;

    private DowncallCostBench()
    {
    }

    public static void main(final String[] args) throws Throwable
    {
        final Linker linker = Linker.nativeLinker();
        final MemorySegment labs = linker.defaultLookup().find("labs").orElseThrow();
        final FunctionDescriptor signature = FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG);
        final MethodHandle critical = linker.downcallHandle(labs, signature, Linker.Option.critical(false));
        final MethodHandle plain = linker.downcallHandle(labs, signature);
        System.out.printf("critical downcall: %.1f ns/call%n", median(critical));
        System.out.printf("plain downcall:    %.1f ns/call%n", median(plain));
    }

    private static double median(final MethodHandle handle) throws Throwable
    {
        run(handle); // warm-up
        final double[] nsPerCall = new double[RUNS];
        for (int r = 0; r < RUNS; r++)
        {
            final long start = System.nanoTime();
            final long sink = run(handle);
            nsPerCall[r] = (System.nanoTime() - start) / (double)CALLS;
            if (sink == 42)
            {
                System.out.print("");
            }
        }
        Arrays.sort(nsPerCall);
        return nsPerCall[RUNS / 2];
    }

    private static long run(final MethodHandle handle) throws Throwable
    {
        long sum = 0;
        for (int i = 0; i < CALLS; i++)
        {
            sum += (long)handle.invokeExact((long)-i);
        }
        return sum;
    }
}
