/**
 * The {@code idl} command (exit codes 0, 1, 2), used by {@code sirocco idl}.
 */
package io.sirocco.idl.cli;
