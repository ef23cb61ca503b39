/**
 * The DDSI-RTPS 2.5 message codec: {@link io.sirocco.pubsub.rtps.wire.RtpsMessageReader} interprets a datagram and
 * hands flyweight views of its submessages (DATA, DATA_FRAG, HEARTBEAT[_FRAG], ACKNACK, NACK_FRAG, GAP; INFO_TS,
 * INFO_DST and INFO_SRC update the receive context) to a
 * {@link io.sirocco.pubsub.rtps.wire.SubmessageHandler}; {@link io.sirocco.pubsub.rtps.wire.RtpsMessageWriter}
 * builds datagrams. Both work in place on a {@link java.nio.ByteBuffer} (the buffer a datagram channel receives
 * into or sends from) and allocate nothing per datagram.
 *
 * <p>Bad input is part of the contract: no byte sequence makes the reader throw. A datagram, or its rest from an
 * invalid submessage on, is dropped and counted by {@link io.sirocco.pubsub.rtps.wire.MalformedReason}; the receive
 * loop logs drops through a rate-limited warning.
 *
 * <p>Threads: a reader and a writer are each confined to one thread (the receive loop, a sending thread); their
 * views are reused. Only {@link io.sirocco.pubsub.rtps.wire.RtpsDecodeStats} is read from other threads.
 */
package io.sirocco.pubsub.rtps.wire;
