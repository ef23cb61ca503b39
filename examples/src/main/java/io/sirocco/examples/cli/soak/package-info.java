/**
 * {@code sirocco soak}: a supervisor ({@link io.sirocco.examples.cli.soak.SoakSupervisor}) that runs publishers and
 * subscribers in child processes ({@link io.sirocco.examples.cli.soak.SoakNodeMain}), kills, freezes and restarts
 * some of them, checks that the subscribers that stay lose nothing, and samples the long-lived processes' RSS,
 * threads and open files ({@link io.sirocco.examples.cli.soak.ProcessSampler}).
 */
package io.sirocco.examples.cli.soak;
