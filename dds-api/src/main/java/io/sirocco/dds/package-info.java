/**
 * The application-facing surface beside {@code org.omg.dds}: the XCDR1/XCDR2 runtime that IDL-generated types
 * use, DDS key hashing, the zero-copy loan extensions, configuration and the bootstrap helper.
 */
package io.sirocco.dds;
