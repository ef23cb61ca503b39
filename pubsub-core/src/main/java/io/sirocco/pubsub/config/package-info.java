/** The catalog of the DDS layer's {@code sirocco.dds.*} settings, which dds-api's {@code SiroccoConfig} reads. */
package io.sirocco.pubsub.config;
