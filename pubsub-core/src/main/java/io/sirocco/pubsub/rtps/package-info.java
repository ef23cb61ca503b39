/**
 * DDSI-RTPS 2.5 interoperation with other vendors' DDS (Cyclone DDS, Fast DDS, Connext, OpenDDS).
 *
 * <p><b>Design: the participant speaks RTPS natively to foreign participants; topics are not bridged.</b> A
 * participant with RTPS enabled announces itself by SPDP and its endpoints by SEDP under its own GUID, and each
 * local writer and reader is also an RTPS endpoint that foreign endpoints match directly. Sirocco participants
 * recognise each other (by vendor id) and keep the SST path among themselves, so no sample between two Sirocco
 * participants travels twice. Why not a bridge (one process that subscribes on one side and republishes on the
 * other): a bridge hides the real endpoints behind its own, so matching, QoS checks (RxO), liveliness, statuses and
 * built-in topics would describe the bridge instead of the application; every sample would be copied and
 * re-sequenced once more, with the bridge's reliability in the middle of the writer's; and a dispose, an unregister
 * or a lost match would have to be re-created by hand. Speaking RTPS natively keeps one writer history and one
 * reliability protocol per pair of endpoints, exactly as the foreign vendor's own participants see each other.
 *
 * <p>Packages: {@code wire} (the message codec). Later steps add UDP sending and receiving on the transport below
 * ({@code io.sirocco.transport.udp}), SPDP/SEDP discovery, and the stateful writer and reader.
 */
package io.sirocco.pubsub.rtps;
