import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The machine's memcpy bandwidth, the anchor of the 64 KiB shm throughput goal (issue 22: "at least 50% of the
 * machine's memcpy bandwidth, measured in the same run"): one thread copies SIZE-byte blocks between two off-heap
 * buffers of 64 MiB each, block after block, so the copies stream through memory rather than stay in a cache, as a
 * sample stream through shm rings does.
 *
 *   java MemcpyFloor.java SIZE SECONDS
 *
 * Ends with one JSON line: {"tool":"memcpy","size":65536,"mb_per_s":..,"working_set_mib":128,"copies":..}
 * (MB = 10^6 bytes; the bytes copied, each counted once). The first second is a warm-up and is not counted.
 */
public final class MemcpyFloor {
    private static final long BUFFER = 64L << 20;

    public static void main(String[] args) {
        int size = Integer.parseInt(args[0]);
        double seconds = Double.parseDouble(args[1]);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment from = arena.allocate(BUFFER, 4096);
            MemorySegment to = arena.allocate(BUFFER, 4096);
            from.fill((byte) 1);
            to.fill((byte) 2);
            long blocks = BUFFER / size;
            copyFor(from, to, size, blocks, 1.0);
            long t0 = System.nanoTime();
            long copies = copyFor(from, to, size, blocks, seconds);
            double elapsed = (System.nanoTime() - t0) / 1e9;
            System.out.printf(java.util.Locale.ROOT,
                "{\"tool\":\"memcpy\",\"size\":%d,\"mb_per_s\":%.1f,\"working_set_mib\":%d,\"copies\":%d}%n",
                size, copies * (double) size / elapsed / 1e6, 2 * BUFFER >> 20, copies);
        }
    }

    /** Copies block after block, wrapping around the buffers, for about {@code seconds}; returns how many. */
    private static long copyFor(MemorySegment from, MemorySegment to, int size, long blocks, double seconds) {
        long end = System.nanoTime() + (long) (seconds * 1e9);
        long copies = 0;
        long block = 0;
        while (true) {
            for (int i = 0; i < 64; i++) {
                long offset = block * size;
                MemorySegment.copy(from, offset, to, offset, size);
                block = block + 1 == blocks ? 0 : block + 1;
            }
            copies += 64;
            if (System.nanoTime() >= end) {
                return copies;
            }
        }
    }
}
