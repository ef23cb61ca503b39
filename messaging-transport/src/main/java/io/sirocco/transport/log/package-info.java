/**
 * Logging that a remote peer cannot flood: {@link io.sirocco.transport.log.RateLimitedWarning}.
 */
package io.sirocco.transport.log;
