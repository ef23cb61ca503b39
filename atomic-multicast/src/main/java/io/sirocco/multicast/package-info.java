/**
 * Derecho-style atomic multicast with the Spindle optimizations: group membership and views, the failure detector,
 * the SST over off-heap {@link java.lang.foreign.MemorySegment}s, the SMC slot rings, the predicate engine with the
 * send, receive and delivery triggers, null-sends, the view change with its ragged trim, and the
 * {@link io.sirocco.multicast.spi.RowTransport} SPI ({@code shm}, {@code tcp}, {@code local}; RDMA in
 * {@code ib-native}). Design: {@code docs/multicast.md}.
 *
 * <h2>Public API (stable; what {@code pubsub-core} builds on)</h2>
 * <ul>
 *   <li>A process joins a <b>group</b> (one DDS domain) as a member with {@link io.sirocco.multicast.Group#join}: it
 *       announces itself in the group's registry (the contact point: files in {@code /dev/shm/sirocco-<group>} on
 *       one host, or in-JVM for tests) and waits for a view that contains it. The contact member
 *       ({@link io.sirocco.multicast.GroupConfig#contact()}) forms the first view; later joiners are added by a view
 *       change that the leader runs.</li>
 *   <li>It registers interest in named <b>subgroups</b> (one per DDS topic) with a
 *       {@link io.sirocco.multicast.model.SubgroupSpec} (mode {@link io.sirocco.multicast.model.DeliveryMode#ORDERED} for
 *       RELIABLE, {@link io.sirocco.multicast.model.DeliveryMode#UNORDERED_LOSSY} for BEST_EFFORT, window, slot size,
 *       largest message) and a {@link io.sirocco.multicast.model.Role} (writer, reader, both), at join or later with
 *       {@link io.sirocco.multicast.Group#register} (a view change). Subgroups are a deterministic function of the
 *       view and the registrations ({@link io.sirocco.multicast.model.View}), so every member computes the same layout.</li>
 *   <li>A writer <b>claims</b> a slot and builds the message in place:
 *       {@link io.sirocco.multicast.Subgroup#tryClaim} (non-blocking, returns a
 *       {@link io.sirocco.multicast.model.ClaimResult} code) or {@link io.sirocco.multicast.Subgroup#claim} (blocking up to
 *       a timeout: DDS {@code max_blocking_time}); then {@link io.sirocco.multicast.model.SlotClaim#commit()}. No I/O on
 *       the calling thread; no allocation per message.</li>
 *   <li>Receivers get <b>batched delivery upcalls</b> on the group's predicate thread:
 *       {@link io.sirocco.multicast.model.DeliveryHandler#onMessage} (sender id, sender rank, index, seq, payload
 *       {@code MemorySegment} view, length), {@link io.sirocco.multicast.model.DeliveryHandler#onBatchEnd}, and in the lossy
 *       mode {@link io.sirocco.multicast.model.DeliveryHandler#onLost} with the exact count skipped. Handlers must be fast,
 *       or hand off (Spindle §3.5).</li>
 *   <li><b>View-change events</b>: {@link io.sirocco.multicast.MembershipListener#onViewInstalled} (new view, members
 *       joined, members left) and {@link io.sirocco.multicast.MembershipListener#onExcluded}.</li>
 *   <li>A persistence layer holds back a view change with
 *       {@link io.sirocco.multicast.Subgroup#holdViewChangeForPersistence} and reports with
 *       {@link io.sirocco.multicast.Subgroup#persisted} (Derecho's {@code persisted_num}).</li>
 * </ul>
 *
 * <pre>{@code
 * GroupConfig cfg = GroupConfig.defaults("domain0").withContact(true, 1);
 * Group g = Group.join(cfg, List.of(new Group.SubgroupRegistration(
 *         SubgroupSpec.of("Shapes", DeliveryMode.ORDERED), Role.WRITER_READER, handler)),
 *     listener, Duration.ofSeconds(10));
 * SlotClaim claim = new SlotClaim();                     // one per sending thread, reused
 * if (g.subgroup("Shapes").claim(len, claim, maxBlockingNs) == ClaimResult.OK) {
 *     serialize(sample, claim.buffer());                 // in place, in the sender's own SST slot
 *     claim.commit();
 * }
 * }</pre>
 */
package io.sirocco.multicast;
