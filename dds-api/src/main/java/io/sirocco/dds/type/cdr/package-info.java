/**
 * The XCDR runtime that generated type-support code calls: {@link io.sirocco.dds.type.cdr.CdrWriter} and {@link
 * io.sirocco.dds.type.cdr.CdrReader} over {@code MemorySegment}s (XCDR1 and XCDR2, both byte orders, DHEADER,
 * EMHEADER and parameter-list headers), the encapsulation header, the KeyHash, and value helpers. Writers and readers
 * are per thread; codecs built on them are stateless.
 */
package io.sirocco.dds.type.cdr;
