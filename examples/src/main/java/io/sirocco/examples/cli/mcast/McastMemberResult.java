package io.sirocco.examples.cli.mcast;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one member measured, as one JSON line ({@code RESULT {...}}) on its standard output.
 *
 * @param index          member position.
 * @param delivered      application messages delivered (all subgroups, markers excluded).
 * @param deliveredOthers delivered messages from senders that were not delayed.
 * @param firstNs        nanoTime of the first delivery.
 * @param lastNs         nanoTime of the last application delivery.
 * @param firstOthersNs  first delivery from a not-delayed sender.
 * @param lastOthersNs   last delivery from a not-delayed sender.
 * @param digest         hash of the per-subgroup running hashes over (view, sender, index) of every delivery, in order.
 * @param sendBatches    send trigger batches.
 * @param sent           messages published (incl. nulls).
 * @param recvBatches    receive batches.
 * @param received       messages received (incl. nulls).
 * @param deliverBatches delivery batches.
 * @param deliveredAll   messages delivered incl. markers (batch mean denominator).
 * @param nulls          null messages sent.
 * @param pushes         row pushes issued.
 * @param viewInstalledEpochMs wall-clock ms when the first smaller view was installed (0 if none).
 * @param finalViewSize  members in the last view.
 * @param exclusions     times this member was put out of the group while it ran (suspected by the others, or left
 *                       to merge); a member that rejoined starts from an empty history, so its counts are not
 *                       comparable with those of members that stayed.
 */
public record McastMemberResult(
    int index,
    long delivered,
    long deliveredOthers,
    long firstNs,
    long lastNs,
    long firstOthersNs,
    long lastOthersNs,
    long digest,
    long sendBatches,
    long sent,
    long recvBatches,
    long received,
    long deliverBatches,
    long deliveredAll,
    long nulls,
    long pushes,
    long viewInstalledEpochMs,
    int finalViewSize,
    int exclusions)
{
    public String toJson()
    {
        return "{\"index\":" + index + ",\"delivered\":" + delivered + ",\"deliveredOthers\":" + deliveredOthers
            + ",\"firstNs\":" + firstNs + ",\"lastNs\":" + lastNs + ",\"firstOthersNs\":" + firstOthersNs
            + ",\"lastOthersNs\":" + lastOthersNs + ",\"digest\":" + digest + ",\"sendBatches\":" + sendBatches
            + ",\"sent\":" + sent + ",\"recvBatches\":" + recvBatches + ",\"received\":" + received
            + ",\"deliverBatches\":" + deliverBatches + ",\"deliveredAll\":" + deliveredAll + ",\"nulls\":" + nulls
            + ",\"pushes\":" + pushes + ",\"viewInstalledEpochMs\":" + viewInstalledEpochMs + ",\"finalViewSize\":"
            + finalViewSize + ",\"exclusions\":" + exclusions + "}";
    }

    /** Parses {@link #toJson()} (flat object of numbers only). */
    public static McastMemberResult fromJson(final String json)
    {
        final Map<String, Long> m = new LinkedHashMap<>();
        final String body = json.strip().replace("{", "").replace("}", "");
        for (final String kv : body.split(","))
        {
            final String[] p = kv.split(":");
            m.put(p[0].replace("\"", "").strip(), Long.parseLong(p[1].strip()));
        }
        return new McastMemberResult(m.get("index").intValue(), m.get("delivered"), m.get("deliveredOthers"),
            m.get("firstNs"), m.get("lastNs"), m.get("firstOthersNs"), m.get("lastOthersNs"), m.get("digest"),
            m.get("sendBatches"), m.get("sent"), m.get("recvBatches"), m.get("received"), m.get("deliverBatches"),
            m.get("deliveredAll"), m.get("nulls"), m.get("pushes"), m.get("viewInstalledEpochMs"),
            m.get("finalViewSize").intValue(), m.getOrDefault("exclusions", 0L).intValue());
    }
}
