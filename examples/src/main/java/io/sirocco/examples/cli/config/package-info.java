/** The command-line tool's own settings and log level, used by every command package. */
package io.sirocco.examples.cli.config;
