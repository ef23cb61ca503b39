/**
 * ddsperf's topic types and names (Cyclone DDS's performance tool), so that Sirocco's RTPS endpoints talk to an
 * unmodified ddsperf.
 */
package io.sirocco.pubsub.rtps.ddsperf;
