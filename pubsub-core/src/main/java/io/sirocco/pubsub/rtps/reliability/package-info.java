/**
 * The state machines of RTPS reliability, free of I/O: {@link io.sirocco.pubsub.rtps.reliability.WriterProxy} (a
 * reliable reader's state per remote writer: what came, what to ask for in ACKNACK) and
 * {@link io.sirocco.pubsub.rtps.reliability.ReaderProxy} (a reliable writer's state per remote reader: what is
 * acknowledged, what to resend). Owned by the participant's RTPS agent; not thread-safe.
 */
package io.sirocco.pubsub.rtps.reliability;
