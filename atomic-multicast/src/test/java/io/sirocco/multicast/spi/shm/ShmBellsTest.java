package io.sirocco.multicast.spi.shm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sirocco.multicast.predicate.IdleWait;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The shm doorbell ({@link ShmBells}) over two separate mappings of one file, as two member processes map it: a ring
 * through one mapping wakes a sleeper on the other; a ring between arming and sleeping is not lost; an unarmed bell is
 * not rung. Sleeps are given a long timeout (60 s) so that only a ring can end them within the test's bounded wait.
 */
@Timeout(60)
class ShmBellsTest
{
    private static final long LONG_SLEEP_NS = TimeUnit.SECONDS.toNanos(60);

    private Path file;
    private Arena arena;
    private ShmBells sleeperSide;
    private ShmBells ringerSide;

    @BeforeEach
    void map() throws IOException
    {
        assumeTrue(Futex.available(), "futex(2) not available on this host");
        file = Files.createTempFile("sirocco-bells", ".sst");
        arena = Arena.ofShared();
        sleeperSide = new ShmBells(mapping(file, arena), 3);
        ringerSide = new ShmBells(mapping(file, arena), 3);
    }

    @AfterEach
    void unmap() throws IOException
    {
        if (arena != null)
        {
            arena.close();
        }
        if (file != null)
        {
            Files.deleteIfExists(file);
        }
    }

    private static MemorySegment mapping(final Path file, final Arena arena) throws IOException
    {
        try (FileChannel ch = FileChannel.open(file, Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE)))
        {
            return ch.map(FileChannel.MapMode.READ_WRITE, 0, ShmBells.length(3), arena);
        }
    }

    @Test
    void shouldWakeASleeperThroughAnotherMapping() throws Exception
    {
        final IdleWait own = sleeperSide.own(1);
        final CompletableFuture<Boolean> slept = new CompletableFuture<>();
        final Thread sleeper = Thread.ofPlatform().start(() ->
        {
            final int token = own.arm();
            slept.complete(own.await(token, LONG_SLEEP_NS));
            own.disarm();
        });
        // Ring once the sleeper is armed (it may or may not be inside the system call yet: both must wake it).
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!ringerSide.armed(1))
        {
            assertThat(System.nanoTime() - deadline).as("sleeper never armed").isNegative();
            Thread.onSpinWait();
        }
        assertThat(ringerSide.ring(1, Futex.errnoBuffer())).as("an armed bell is rung").isTrue();
        assertThat(slept.get(20, TimeUnit.SECONDS)).as("the sleep used the futex").isTrue();
        sleeper.join(20_000);
        assertThat(ringerSide.armed(1)).isFalse();
    }

    @Test
    void shouldNotLoseARingBetweenArmingAndSleeping()
    {
        final IdleWait own = sleeperSide.own(2);
        final int token = own.arm();
        assertThat(ringerSide.ring(2, Futex.errnoBuffer())).isTrue();
        // The value moved, so the sleep returns at once instead of lasting the 60 s timeout (the test's bound).
        assertThat(own.await(token, LONG_SLEEP_NS)).isTrue();
        own.disarm();
    }

    @Test
    void shouldNotRingAnUnarmedBellAndOnlyOnceAnArmedOne()
    {
        final IdleWait own = sleeperSide.own(0);
        assertThat(ringerSide.ring(0, Futex.errnoBuffer())).as("unarmed").isFalse();
        final int token = own.arm();
        assertThat(ringerSide.ring(0, Futex.errnoBuffer())).as("armed").isTrue();
        assertThat(ringerSide.ring(0, Futex.errnoBuffer())).as("already rung this sleep").isFalse();
        own.disarm();
        // Exactly one ring moved the value: the next arm sees token + 1.
        assertThat(own.arm()).isEqualTo(token + 1);
        own.disarm();
    }

    @Test
    void shouldRingOnlyTheNamedMember()
    {
        final IdleWait zero = sleeperSide.own(0);
        final IdleWait one = sleeperSide.own(1);
        zero.arm();
        one.arm();
        ringerSide.ring(1, Futex.errnoBuffer());
        assertThat(ringerSide.armed(0)).isTrue();
        assertThat(ringerSide.armed(1)).isFalse();
        zero.disarm();
        one.disarm();
    }

    /** A view change inside the armed pass closes the table before the engine thread disarms (seen in CI). */
    @Test
    void shouldDisarmAndRingABellWhoseTableWasClosedWithoutThrowing() throws IOException
    {
        final Arena own = Arena.ofShared();
        final ShmBells closing = new ShmBells(mapping(file, own), 3);
        final IdleWait bell = closing.own(1);
        bell.arm();
        own.close();
        bell.disarm();
        bell.ring();
    }
}
