package io.sirocco.multicast.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The host identity: what makes two processes "the same host" for the mixed transport and crash detection. */
class HostIdentityTest
{
    @Test
    void samePartsGiveTheSameIdentityAnyDifferentPartAnother()
    {
        final String id = HostIdentity.of("h1", "boot-1", "pid:[1]", "45:1");
        assertThat(id).isEqualTo(HostIdentity.of("h1", "boot-1", "pid:[1]", "45:1")).matches("h1/[0-9a-f]{8}");
        // Another machine with the same name (boot id), a container (pid namespace), another shm root.
        assertThat(HostIdentity.of("h1", "boot-2", "pid:[1]", "45:1")).isNotEqualTo(id).startsWith("h1/");
        assertThat(HostIdentity.of("h1", "boot-1", "pid:[2]", "45:1")).isNotEqualTo(id);
        assertThat(HostIdentity.of("h1", "boot-1", "pid:[1]", "46:1")).isNotEqualTo(id);
    }

    @Test
    void theHostNameAloneWhenNothingElseCanBeRead()
    {
        assertThat(HostIdentity.of("h1", "", "", "")).isEqualTo("h1");
        assertThat(HostIdentity.of(" ", "", "", "")).isEqualTo("localhost");
    }

    @Test
    void separatorsOfTheMemberRecordAreReplaced()
    {
        // Member.encode() separates fields by ';' and registrations by ',' and '|'.
        assertThat(HostIdentity.of("a;b,c|d e", "", "", "")).isEqualTo("a_b_c_d_e");
    }

    @Test
    void twoDirectoriesHaveDifferentFileKeysOneDirectoryTheSame(@TempDir final Path dir) throws Exception
    {
        final Path a = Files.createDirectory(dir.resolve("a"));
        final Path b = Files.createDirectory(dir.resolve("b"));
        assertThat(HostIdentity.fileKey(a)).isNotEmpty().isEqualTo(HostIdentity.fileKey(a))
            .isNotEqualTo(HostIdentity.fileKey(b));
        assertThat(HostIdentity.fileKey(dir.resolve("missing"))).isEmpty();
    }

    @Test
    void theOverrideWins()
    {
        final String before = System.getProperty(HostIdentity.OVERRIDE);
        try
        {
            System.setProperty(HostIdentity.OVERRIDE, "emulated-host-7");
            assertThat(HostIdentity.local()).isEqualTo("emulated-host-7");
            assertThat(Member.localHost()).isEqualTo("emulated-host-7");
        }
        finally
        {
            if (before == null)
            {
                System.clearProperty(HostIdentity.OVERRIDE);
            }
            else
            {
                System.setProperty(HostIdentity.OVERRIDE, before);
            }
        }
    }
}
