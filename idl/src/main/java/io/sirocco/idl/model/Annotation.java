package io.sirocco.idl.model;

import java.util.Map;

/**
 * An annotation application such as {@code @key}, {@code @id(3)} or {@code @range(min=0, max=10)}. A single
 * unnamed parameter is stored under {@code "value"}.
 */
public record Annotation(String name, Map<String, Expr> params, SourcePos pos)
{
}
