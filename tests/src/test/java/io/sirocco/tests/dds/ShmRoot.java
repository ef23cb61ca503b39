package io.sirocco.tests.dds;

import java.nio.file.Path;

import io.sirocco.tests.RunShmRoot;

/** Where tests put per-"host" shm directories: inside this test JVM's private root ({@link RunShmRoot}), on tmpfs. */
final class ShmRoot
{
    static final Path PATH = RunShmRoot.path();

    private ShmRoot()
    {
    }
}
