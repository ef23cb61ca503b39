package io.sirocco.tests.dds;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where tests put per-"host" shm directories: on tmpfs ({@code /dev/shm}) when there is one, as production does. */
final class ShmRoot
{
    static final Path PATH = Files.isDirectory(Path.of("/dev/shm")) ? Path.of("/dev/shm")
        : Path.of(System.getProperty("java.io.tmpdir"));

    private ShmRoot()
    {
    }
}
