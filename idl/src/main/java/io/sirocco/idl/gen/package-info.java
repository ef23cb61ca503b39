/**
 * Java code generation: classes for structs, unions, enums, bitmasks, bitsets and constants; a {@code TypeSupport}
 * codec per struct and union; a {@code Flat} view per fixed-size struct. See docs/idl.md for the mapping.
 */
package io.sirocco.idl.gen;
