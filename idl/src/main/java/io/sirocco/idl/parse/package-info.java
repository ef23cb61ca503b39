/**
 * Front end of the IDL compiler: lexer, preprocessor (includes, macros, conditionals, pragma keylist), recursive-
 * descent parser and the resolver that checks names, constants, annotations, keys and recursion. Every error is an
 * {@link io.sirocco.idl.model.IdlException} with a file, line and column.
 */
package io.sirocco.idl.parse;
