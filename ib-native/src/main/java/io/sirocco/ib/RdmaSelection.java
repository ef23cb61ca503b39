package io.sirocco.ib;

import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Applies a user's transport choice ({@code auto}, {@code rdma}, or anything else) to what this host offers. The
 * rules, shared by the row transport and the messaging transport:
 * <ul>
 *   <li>{@code auto}: RDMA when available; otherwise the caller's shm/tcp default, after exactly one INFO line saying
 *   why RDMA is not used.</li>
 *   <li>{@code rdma}: RDMA, or an {@link RdmaUnavailableException} at startup naming what is missing (the library or
 *   a device).</li>
 *   <li>anything else: not RDMA, silently (the user chose another transport).</li>
 * </ul>
 */
public final class RdmaSelection
{
    /** The choice that selects RDMA or falls back. */
    public static final String AUTO = "auto";
    /** The explicit RDMA choice. */
    public static final String RDMA = "rdma";

    private RdmaSelection()
    {
    }

    /**
     * Decides whether to use RDMA.
     *
     * @param choice       the configured transport name
     * @param what         what is being selected, for messages (e.g. "row transport of group g")
     * @param availability probes the host (called only for {@code auto} and {@code rdma})
     * @param infoLog      receives the one INFO line of an {@code auto} fallback
     * @return true to use RDMA
     * @throws RdmaUnavailableException if {@code rdma} was chosen and is not available
     */
    public static boolean useRdma(
        final String choice, final String what, final Supplier<RdmaAvailability> availability,
        final Consumer<String> infoLog)
    {
        final String normalised = null == choice ? AUTO : choice.trim().toLowerCase(Locale.ROOT);
        if (!AUTO.equals(normalised) && !RDMA.equals(normalised))
        {
            return false;
        }
        final RdmaAvailability probe = availability.get();
        if (probe.available())
        {
            return true;
        }
        if (RDMA.equals(normalised))
        {
            throw new RdmaUnavailableException(
                "transport 'rdma' was chosen for the " + what + " but RDMA is unavailable; missing: " + probe.missing());
        }
        infoLog.accept("RDMA not used for the " + what + " (transport 'auto'); missing: " + probe.missing()
            + ". Using shm/tcp.");
        return false;
    }
}
