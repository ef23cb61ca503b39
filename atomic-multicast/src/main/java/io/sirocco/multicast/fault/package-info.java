/**
 * Fault injection for tests: named points in the protocol where an injector installed on a
 * {@link io.sirocco.multicast.Group} may crash the member on the spot. Never used in production paths other than to
 * call the no-op injector.
 */
package io.sirocco.multicast.fault;
