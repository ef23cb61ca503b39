package io.sirocco.multicast.spi.mixed;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A new view removes the table files that members killed without closing their views left behind, and only those. */
class SameHostRowsCleanupTest
{
    @Test
    void removesEarlierViewsOfMembersThatAreGoneKeepsEverythingElse(@TempDir final Path dir) throws Exception
    {
        final Path deadOld = Files.createFile(dir.resolve("v3-m7.sst"));
        final Path liveOld = Files.createFile(dir.resolve("v3-m5.sst"));
        final Path deadCurrent = Files.createFile(dir.resolve("v4-m7.sst"));
        final Path otherKind = Files.createFile(dir.resolve("v2.sst"));
        final Path registry = Files.createFile(dir.resolve("m7.member"));

        assertThat(SameHostRows.removeDeparted(dir, 4, new long[] {5, 6})).containsExactly(deadOld);

        assertThat(deadOld).doesNotExist();
        // A member of the new view may still be closing its old view; a file of this view belongs to a member
        // the view is being installed with or without; other files are not the mixed transport's.
        assertThat(liveOld).exists();
        assertThat(deadCurrent).exists();
        assertThat(otherKind).exists();
        assertThat(registry).exists();
    }

    @Test
    void aMissingDirectoryIsNotAnError(@TempDir final Path dir)
    {
        assertThat(SameHostRows.removeDeparted(dir.resolve("gone"), 4, new long[] {1})).isEmpty();
    }
}
