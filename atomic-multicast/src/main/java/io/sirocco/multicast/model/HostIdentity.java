package io.sirocco.multicast.model;

import java.net.InetAddress;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import io.sirocco.multicast.config.MulticastSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What "the same host" means for members: two members are on one host when they can map the same shared-memory
 * files and see each other's processes. The host name alone does not say that (cloned machines and containers share
 * names; containers on one machine share the kernel but not {@code /dev/shm}), so the identity is
 * {@code <hostname>/<8 hex digits>}, the digits hashing
 * <ul>
 *   <li>the kernel's boot id ({@code /proc/sys/kernel/random/boot_id}): one per machine and boot;</li>
 *   <li>the pid namespace ({@code /proc/self/ns/pid}): same-host crash detection looks processes up by pid;</li>
 *   <li>the device and inode of the shm root ({@code sirocco.multicast.shm.dir}, else {@code /dev/shm}): members that do not
 *       see the same directory cannot share a table, so they must talk tcp.</li>
 * </ul>
 * Processes in network namespaces of one machine (the emulated hosts of the tests) share all three; they set
 * {@code sirocco.multicast.host} (and a per-host {@code sirocco.multicast.shm.dir}). The override replaces the identity entirely.
 * Components that cannot be read (not Linux) are left out; the host name then decides alone, which is logged.
 *
 * <p>Stateless apart from the value computed once per JVM (the inputs do not change while a process runs).
 */
public final class HostIdentity
{
    private static final Logger LOG = LoggerFactory.getLogger(HostIdentity.class);

    /** The system property that overrides the identity (emulated hosts). */
    public static final String OVERRIDE = MulticastSettings.HOST;

    private static volatile String computed;

    private HostIdentity()
    {
    }

    /** @return this process's host identity: {@value #OVERRIDE} if set, else the computed one (logged once). */
    public static String local()
    {
        final String override = MulticastSettings.host();
        if (override != null)
        {
            return override;
        }
        String id = computed;
        if (id == null)
        {
            synchronized (HostIdentity.class)
            {
                id = computed;
                if (id == null)
                {
                    id = compute();
                    computed = id;
                }
            }
        }
        return id;
    }

    private static String compute()
    {
        final String hostName = hostName();
        final String bootId = read(Path.of("/proc/sys/kernel/random/boot_id"));
        final String pidNamespace = link(Path.of("/proc/self/ns/pid"));
        final String shmRoot = fileKey(existing(MulticastSettings.shmDirectory()));
        final String id = of(hostName, bootId, pidNamespace, shmRoot);
        if (bootId.isEmpty() && pidNamespace.isEmpty() && shmRoot.isEmpty())
        {
            LOG.warn("host identity '{}': the host name alone (no boot id, pid namespace or shm root could be read); "
                + "set {} if two hosts share a name", id, OVERRIDE);
        }
        else
        {
            LOG.debug("host identity '{}': host name plus a hash of boot id {}, pid namespace {}, shm root {} ({}); "
                + "members with the same identity share memory, others use tcp (override: {})", id,
                bootId.isEmpty() ? "(none)" : bootId, pidNamespace.isEmpty() ? "(none)" : pidNamespace,
                MulticastSettings.shmDirectory(), shmRoot.isEmpty() ? "unreadable" : shmRoot, OVERRIDE);
        }
        return id;
    }

    /**
     * The identity from its parts (pure, for tests).
     *
     * @return {@code hostName} when every other part is empty, else {@code hostName/<8 hex digits>}.
     */
    static String of(final String hostName, final String bootId, final String pidNamespace, final String shmRoot)
    {
        final String name = hostName.isBlank() ? "localhost" : hostName.replaceAll("[;,|\\s]", "_");
        if (bootId.isEmpty() && pidNamespace.isEmpty() && shmRoot.isEmpty())
        {
            return name;
        }
        try
        {
            final byte[] digest = MessageDigest.getInstance("SHA-256").digest(
                (bootId + "\n" + pidNamespace + "\n" + shmRoot).getBytes(StandardCharsets.UTF_8));
            return name + "/" + HexFormat.of().formatHex(digest, 0, 4);
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException("SHA-256 is required by every JDK", ex);
        }
    }

    private static String hostName()
    {
        try
        {
            return InetAddress.getLocalHost().getHostName();
        }
        catch (final IOException ex)
        {
            return "localhost";
        }
    }

    private static String read(final Path file)
    {
        try
        {
            return Files.readString(file).strip();
        }
        catch (final IOException | RuntimeException ex)
        {
            return "";
        }
    }

    private static String link(final Path file)
    {
        try
        {
            return Files.readSymbolicLink(file).toString();
        }
        catch (final IOException | RuntimeException ex)
        {
            return "";
        }
    }

    /**
     * Creates a configured shm root that does not exist yet (the first group would create it anyway): otherwise the
     * first process would hash "no root" and every later one the created directory, and the two would not be the
     * same host.
     */
    private static Path existing(final Path root)
    {
        try
        {
            Files.createDirectories(root);
        }
        catch (final IOException | RuntimeException ex)
        {
            // Left out of the identity (fileKey is empty) and logged with it.
        }
        return root;
    }

    /** @return {@code dev:ino} of the directory (the shm root), or empty when it does not exist or is unreadable. */
    static String fileKey(final Path directory)
    {
        try
        {
            return Files.getAttribute(directory, "unix:dev") + ":" + Files.getAttribute(directory, "unix:ino");
        }
        catch (final IOException | RuntimeException ex)
        {
            return "";
        }
    }
}
