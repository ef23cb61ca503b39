package io.sirocco.log.replication;

import java.util.List;

import io.sirocco.log.zone.ZoneId;
import io.sirocco.log.recovery.RecoveryConsumer;
import io.sirocco.log.recovery.RecoveryReport;

/**
 * Receives the zones this member recovers when their owner fails (later: the DDS history cache that serves late
 * joiners). Called on the zone's recovery thread; zones of one failed owner are recovered in parallel.
 */
public interface FailoverListener
{
    /** The consumer that takes the recovered entries of {@code zone}, whose owner {@code failedOwner} left. */
    RecoveryConsumer consumerFor(ZoneId zone, int failedOwner);

    /**
     * The consumer of {@code zone} has every recovered entry ({@link RecoveryConsumer#onComplete} ran), before the
     * zone is re-replicated to new backups, which takes longer: what serves the history can start now.
     */
    default void onHistoryRecovered(final ZoneId zone, final int failedOwner, final RecoveryReport report)
    {
    }

    /** The zone is recovered here; it has been re-replicated to {@code newBackups} (this member is its owner now). */
    void onZoneRecovered(ZoneId zone, int failedOwner, RecoveryReport report, List<Integer> newBackups);
}
