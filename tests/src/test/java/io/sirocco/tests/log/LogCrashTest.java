package io.sirocco.tests.log;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.sirocco.log.BackupStore;
import io.sirocco.log.config.SyncPolicy;
import io.sirocco.log.zone.ZoneId;
import io.sirocco.log.entry.LogEntry;
import io.sirocco.log.recovery.Damage;
import io.sirocco.log.recovery.SegmentScanner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Crash tests with the backup store in a separate process: SIGKILL mid-write under {@code group} loses no
 * acknowledged entry; truncated segment tails and flipped bytes are reported, and exactly the damaged entries are
 * lost (nothing else, and nothing corrupt comes back).
 */
class LogCrashTest
{
    private static final int SEGMENT = 256 * 1024;

    @TempDir
    Path dir;

    @Test
    @Timeout(180)
    void sigkillMidWriteLosesNoAcknowledgedEntryUnderGroup() throws Exception
    {
        final int zones = 3;
        final long[] acked = {-1, -1, -1};
        try (Children children = new Children())
        {
            final Children.Child child = children.start(LogWriterMain.class, dir.toString(), "group", "5000000",
                Integer.toString(zones), Integer.toString(SEGMENT), "hold");
            assertThat(child.await(lines -> ackedEntries(lines, zones) >= 40_000, 120))
                .as("child acknowledged 40,000 entries").isTrue();
            child.process.destroyForcibly(); // SIGKILL while it keeps writing
            child.process.waitFor();
            child.await(lines -> false, 1);
            for (final String line : child.lines)
            {
                if (line.startsWith("ACK "))
                {
                    final String[] parts = line.split(" ");
                    final int zone = Integer.parseInt(parts[1]);
                    acked[zone] = Math.max(acked[zone], Long.parseLong(parts[2]));
                }
            }
            assertThat(child.lines).doesNotContain("DONE");
        }
        try (BackupStore store = BackupStore.open(dir, LogWriterMain.config(SyncPolicy.GROUP, SEGMENT), null))
        {
            for (int z = 0; z < zones; z++)
            {
                final Recovered recovered = new Recovered();
                store.recover(new ZoneId(0xC0FFEE, z), recovered);
                for (long ticket = 0; ticket <= acked[z]; ticket++)
                {
                    final long i = ticket * zones + z;
                    assertThat(recovered.entries.get(i)).as("acknowledged entry %d of zone %d", i, z)
                        .isEqualTo(Payloads.of(i));
                }
                for (final var e : recovered.entries.entrySet())
                {
                    assertThat(e.getValue()).as("recovered entry %d is byte-exact", e.getKey())
                        .isEqualTo(Payloads.of(e.getKey()));
                }
                assertThat(recovered.entries.size()).isGreaterThan((int)acked[z]);
            }
        }
    }

    private static long ackedEntries(final List<String> lines, final int zones)
    {
        final long[] acked = new long[zones];
        for (final String line : lines)
        {
            if (line.startsWith("ACK "))
            {
                final String[] parts = line.split(" ");
                acked[Integer.parseInt(parts[1])] = Long.parseLong(parts[2]) + 1;
            }
        }
        long total = 0;
        for (final long a : acked)
        {
            total += a;
        }
        return total;
    }

    record Placed(Path file, int offset, int length, long sequence)
    {
    }

    @Test
    @Timeout(180)
    void truncatedTailsAndFlippedBytesAreReportedAndOnlyDamagedEntriesAreLost() throws Exception
    {
        final long entries = 20_000;
        try (Children children = new Children())
        {
            final Children.Child child = children.start(LogWriterMain.class, dir.toString(), "group",
                Long.toString(entries), "1", Integer.toString(SEGMENT), "exit");
            assertThat(child.process.waitFor()).isZero();
            assertThat(child.lines).contains("DONE");
        }
        final Path zoneDir = dir.resolve(new ZoneId(0xC0FFEE, 0).directoryName());
        final List<Path> segments;
        try (Stream<Path> files = Files.list(zoneDir))
        {
            segments = files.filter(p -> p.getFileName().toString().startsWith("seg-")).sorted().toList();
        }
        assertThat(segments.size()).isGreaterThanOrEqualTo(6);
        final List<List<Placed>> placed = new ArrayList<>();
        for (final Path segment : segments)
        {
            final ByteBuffer image = ByteBuffer.wrap(Files.readAllBytes(segment)).order(ByteOrder.LITTLE_ENDIAN);
            final List<Placed> list = new ArrayList<>();
            final List<Damage> none = new ArrayList<>();
            new SegmentScanner(1 << 22).scan(segment, image, image.limit(),
                (LogEntry e) -> list.add(new Placed(segment, e.offset(), e.totalLength(), e.sequence())), none);
            assertThat(none).isEmpty();
            placed.add(list);
        }

        final long seed = System.nanoTime();
        final Random random = new Random(seed);
        final Set<Long> lost = new HashSet<>();
        final List<Placed> damagedEntries = new ArrayList<>();
        final List<Path> truncated = new ArrayList<>();
        for (int t = 0; t < 2; t++)
        {
            final int index = t * (segments.size() / 2) + random.nextInt(segments.size() / 2);
            final List<Placed> list = placed.get(index);
            final Placed cut = list.get(list.size() / 2 + random.nextInt(list.size() / 2));
            final int at = cut.offset() + 1 + random.nextInt(cut.length() - 1); // inside the entry: a torn tail
            try (RandomAccessFile file = new RandomAccessFile(cut.file().toFile(), "rw"))
            {
                file.setLength(at);
            }
            truncated.add(cut.file());
            for (final Placed p : list)
            {
                if (p.offset() + p.length() > at)
                {
                    lost.add(p.sequence());
                }
            }
            placed.set(index, List.of());
        }
        for (int f = 0; f < 8; f++)
        {
            final List<Placed> list = placed.get(random.nextInt(placed.size()));
            if (list.isEmpty())
            {
                f--;
                continue;
            }
            final Placed victim = list.get(random.nextInt(list.size()));
            if (lost.contains(victim.sequence()))
            {
                f--;
                continue;
            }
            final int at = victim.offset() + random.nextInt(victim.length());
            try (RandomAccessFile file = new RandomAccessFile(victim.file().toFile(), "rw"))
            {
                file.seek(at);
                final int old = file.read();
                file.seek(at);
                file.write(old ^ (1 + random.nextInt(255)));
            }
            lost.add(victim.sequence());
            damagedEntries.add(victim);
        }

        try (BackupStore store = BackupStore.open(dir, LogWriterMain.config(SyncPolicy.GROUP, SEGMENT), null))
        {
            final Recovered recovered = new Recovered();
            store.recover(new ZoneId(0xC0FFEE, 0), recovered);
            final List<Damage> damages = recovered.report.damages();
            for (long i = 0; i < entries; i++)
            {
                if (lost.contains(i))
                {
                    // A damaged copy must never come back corrupt. The same entry can also survive intact in its
                    // other copy (primary log and secondary log), and recovering that copy loses nothing.
                    if (recovered.entries.containsKey(i))
                    {
                        assertThat(recovered.entries.get(i)).as("damaged entry %d recovered only intact (seed %d)", i, seed)
                            .isEqualTo(Payloads.of(i));
                    }
                }
                else
                {
                    assertThat(recovered.entries.get(i)).as("undamaged entry %d (seed %d)", i, seed)
                        .isEqualTo(Payloads.of(i));
                }
            }
            for (final Path file : truncated)
            {
                assertThat(damages).as("torn tail of %s reported (seed %d)", file, seed)
                    .anyMatch(d -> d.file().equals(file));
            }
            for (final Placed victim : damagedEntries)
            {
                assertThat(damages).as("flipped byte in entry %d at %s:%d reported (seed %d)", victim.sequence(),
                    victim.file(), victim.offset(), seed)
                    .anyMatch(d -> d.file().equals(victim.file()) && d.offset() >= victim.offset()
                        && d.offset() < victim.offset() + victim.length());
            }
        }
    }

    static void deleteQuietly(final Path path) throws IOException
    {
        Files.deleteIfExists(path);
    }
}
