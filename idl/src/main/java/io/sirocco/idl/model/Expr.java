package io.sirocco.idl.model;

/** A constant expression as parsed; the resolver evaluates it to a {@link java.math.BigInteger}, Double, etc. */
public sealed interface Expr permits Expr.Literal, Expr.Name, Expr.Unary, Expr.Binary
{
    SourcePos pos();

    /** value: BigInteger, Double, Boolean, Character, String. {@code wide} marks L'x' and L"x". */
    record Literal(Object value, boolean wide, SourcePos pos) implements Expr
    {
    }

    record Name(String name, SourcePos pos) implements Expr
    {
    }

    record Unary(String op, Expr operand, SourcePos pos) implements Expr
    {
    }

    record Binary(String op, Expr left, Expr right, SourcePos pos) implements Expr
    {
    }
}
