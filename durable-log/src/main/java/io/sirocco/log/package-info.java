/**
 * Durable storage for TRANSIENT and PERSISTENT topics, after the DXRAM thesis: backup zones and their
 * placement, the write buffer, the primary log, per-zone secondary logs in segments, epoch versions and the version
 * log, the cleaner, local recovery, and the replication and failover-recovery protocol.
 */
package io.sirocco.log;
