/**
 * What {@code sirocco ls} and {@code sirocco spy} need to look at a live domain through the built-in topics: the
 * listing of participants, topics, writers and readers with their QoS, the Java class of a discovered type, and a
 * field-by-field rendering of a sample.
 */
package io.sirocco.examples.cli.inspect;
