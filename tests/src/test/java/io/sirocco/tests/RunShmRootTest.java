package io.sirocco.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/** The launcher listener gave this test JVM its own shm root before any test ran, and children are told about it. */
class RunShmRootTest
{
    @Test
    void thisJvmHasItsOwnShmRootAndPassesItOn()
    {
        final String configured = System.getProperty("sirocco.multicast.shm.dir");
        assertThat(configured).as("sirocco.multicast.shm.dir set by the launcher session listener").isNotNull();
        final Path root = Path.of(configured);
        assertThat(root).isEqualTo(RunShmRoot.path());
        assertThat(root.getFileName().toString()).startsWith("sirocco-test-run-" + ProcessHandle.current().pid() + "-");
        assertThat(Files.isDirectory(root)).isTrue();
        assertThat(RunShmRoot.jvmProperty()).isEqualTo("-Dsirocco.multicast.shm.dir=" + root);
    }

    @Test
    void freePortsAreBelowTheEphemeralRangeAndDistinct()
    {
        final int a = FreePorts.next();
        final int b = FreePorts.next();
        assertThat(a).isBetween(10_000, 17_399).isNotEqualTo(b);
        assertThat(b).isBetween(10_000, 17_399);
    }
}
