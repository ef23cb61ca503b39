/**
 * The OMG IDL 4 compiler: preprocessor, parser, semantic model, and the Java code generator that targets
 * the {@code dds-api} runtime, with its command-line entry point.
 */
package io.sirocco.idl;
