/**
 * Long-running loops as agents: every loop of every module (selectors, coordinators, predicate engines, flushers,
 * registry pollers, cleaners) implements Agrona's {@link org.agrona.concurrent.Agent} and runs through
 * {@link io.sirocco.transport.agent.Agents}, on a named daemon platform thread with an idle strategy. Nothing else
 * in the house creates a thread: one-off background work goes to {@link io.sirocco.transport.agent.Agents#threadFactory}.
 */
package io.sirocco.transport.agent;
