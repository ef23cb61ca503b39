/**
 * The DDS implementation of the OMG Java 5 PSM: the ServiceEnvironment and its SPI, participants, topics,
 * publishers and subscribers, writers and readers, history caches and instances, QoS and request/offered matching,
 * listeners, WaitSets and conditions, built-in topics and discovery. Each topic maps to an atomic-multicast
 * subgroup, and each durable topic to the durable log.
 */
package io.sirocco.pubsub;
