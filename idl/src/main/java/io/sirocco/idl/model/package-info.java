/**
 * The compiler's model of IDL definitions and types, source positions and diagnostics.
 */
package io.sirocco.idl.model;
