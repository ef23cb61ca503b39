package io.sirocco.idl.parse;

import io.sirocco.idl.model.Decl;
import io.sirocco.idl.model.Decls;
import io.sirocco.idl.model.Expr;
import io.sirocco.idl.model.IdlException;
import io.sirocco.idl.model.PrimKind;
import io.sirocco.idl.model.SourcePos;
import io.sirocco.idl.model.TypeRef;
import io.sirocco.idl.model.Types;

import java.math.BigInteger;

/**
 * Constant expressions (IDL 4.2 §7.4.1.4.3): evaluates literals, names of earlier constants and enumerators, and
 * unary and binary operators, and converts a value to a declared type with range checks. Integers are
 * {@link BigInteger}, floating-point values {@link Double}. Confined to the compiling thread.
 */
final class ConstEvaluator
{
    private final SymbolTable symbols;

    ConstEvaluator(final SymbolTable symbols)
    {
        this.symbols = symbols;
    }

    Object evaluate(final Expr e, final String scope) throws IdlException
    {
        return switch (e)
        {
            case Expr.Literal l -> l.value();
            case Expr.Name n -> name(n, scope);
            case Expr.Unary u -> unary(u, scope);
            case Expr.Binary b -> binary(b, scope);
        };
    }

    private Object name(final Expr.Name n, final String scope) throws IdlException
    {
        final Decl d = symbols.lookup(n.name(), scope, n.pos());
        if (d instanceof Decls.Const c)
        {
            if (c.value == null)
            {
                throw new IdlException(n.pos(), "constant '" + n.name() + "' is used before its value is known");
            }
            return c.value;
        }
        if (d instanceof Decls.EnumValue v)
        {
            return v;
        }
        throw new IdlException(n.pos(), "'" + n.name() + "' is a " + d.kind() + ", not a constant");
    }

    private Object unary(final Expr.Unary u, final String scope) throws IdlException
    {
        final Object v = evaluate(u.operand(), scope);
        if (v instanceof BigInteger b)
        {
            return switch (u.op())
            {
                case "-" -> b.negate();
                case "~" -> b.not();
                default -> b;
            };
        }
        if (v instanceof Double d && !u.op().equals("~"))
        {
            return u.op().equals("-") ? -d : d;
        }
        throw new IdlException(u.pos(), "operator '" + u.op() + "' needs a number");
    }

    private Object binary(final Expr.Binary b, final String scope) throws IdlException
    {
        final Object l = evaluate(b.left(), scope);
        final Object r = evaluate(b.right(), scope);
        if (l instanceof BigInteger x && r instanceof BigInteger y)
        {
            return integer(b, x, y);
        }
        if (l instanceof Number x && r instanceof Number y && (l instanceof Double || r instanceof Double))
        {
            final double p = x.doubleValue();
            final double q = y.doubleValue();
            return switch (b.op())
            {
                case "+" -> p + q;
                case "-" -> p - q;
                case "*" -> p * q;
                case "/" -> p / q;
                default -> throw new IdlException(b.pos(), "operator '" + b.op()
                    + "' needs integer operands");
            };
        }
        if (l instanceof String x && r instanceof String y && b.op().equals("+"))
        {
            return x + y;
        }
        throw new IdlException(b.pos(), "operator '" + b.op() + "' cannot combine these operands");
    }

    private static BigInteger integer(final Expr.Binary b, final BigInteger x, final BigInteger y) throws IdlException
    {
        return switch (b.op())
        {
            case "|" -> x.or(y);
            case "^" -> x.xor(y);
            case "&" -> x.and(y);
            case "<<", ">>" ->
            {
                if (y.signum() < 0 || y.compareTo(BigInteger.valueOf(64)) >= 0)
                {
                    throw new IdlException(b.pos(), "shift count " + y + " is out of range (0..63)");
                }
                yield b.op().equals("<<") ? x.shiftLeft(y.intValue()) : x.shiftRight(y.intValue());
            }
            case "+" -> x.add(y);
            case "-" -> x.subtract(y);
            case "*" -> x.multiply(y);
            default ->
            {
                if (y.signum() == 0)
                {
                    throw new IdlException(b.pos(), "division by zero in constant expression");
                }
                yield b.op().equals("/") ? x.divide(y) : x.remainder(y);
            }
        };
    }

    static BigInteger[] range(final PrimKind k)
    {
        return switch (k)
        {
            case INT8 -> new BigInteger[] {BigInteger.valueOf(-128), BigInteger.valueOf(127)};
            case UINT8, OCTET -> new BigInteger[] {BigInteger.ZERO, BigInteger.valueOf(255)};
            case INT16 -> new BigInteger[] {BigInteger.valueOf(Short.MIN_VALUE), BigInteger.valueOf(Short.MAX_VALUE)};
            case UINT16 -> new BigInteger[] {BigInteger.ZERO, BigInteger.valueOf(65535)};
            case INT32 -> new BigInteger[] {BigInteger.valueOf(Integer.MIN_VALUE), BigInteger.valueOf(Integer.MAX_VALUE)};
            case UINT32 -> new BigInteger[] {BigInteger.ZERO, BigInteger.valueOf(0xffffffffL)};
            case INT64 -> new BigInteger[] {BigInteger.valueOf(Long.MIN_VALUE), BigInteger.valueOf(Long.MAX_VALUE)};
            default -> new BigInteger[] {BigInteger.ZERO, BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE)};
        };
    }

    /** Converts a constant value to the given type, with range checks (IDL 4.2 §7.4.1.4.3.1). */
    static Object coerce(final Object v, final TypeRef type, final SourcePos pos, final String what)
        throws IdlException
    {
        final TypeRef t = Types.unalias(type);
        if (t instanceof TypeRef.Prim p)
        {
            return coercePrim(v, p.kind(), pos, what);
        }
        if (t instanceof TypeRef.Str s)
        {
            if (!(v instanceof String str))
            {
                throw new IdlException(pos, what + " must be a string literal");
            }
            if (s.bound > 0 && str.length() > s.bound)
            {
                throw new IdlException(pos, what + " string of " + str.length() + " characters exceeds bound "
                    + s.bound);
            }
            return str;
        }
        if (t instanceof TypeRef.Named n && n.target instanceof Decls.Enum e)
        {
            if (!(v instanceof Decls.EnumValue ev) || ev.owner != e)
            {
                throw new IdlException(pos, what + " must be an enumerator of " + e.name);
            }
            return v;
        }
        throw new IdlException(pos, what + " cannot have a value of this type");
    }

    private static Object coercePrim(final Object v, final PrimKind k, final SourcePos pos, final String what)
        throws IdlException
    {
        if (k.isInteger())
        {
            if (!(v instanceof BigInteger b))
            {
                throw new IdlException(pos, what + " must be an integer for type " + k.idlName());
            }
            final BigInteger[] r = range(k);
            if (b.compareTo(r[0]) < 0 || b.compareTo(r[1]) > 0)
            {
                throw new IdlException(pos, what + " value " + b + " is out of range for " + k.idlName() + " ("
                    + r[0] + ".." + r[1] + ")");
            }
            return b;
        }
        if (k.isFloat())
        {
            if (!(v instanceof Number n))
            {
                throw new IdlException(pos, what + " must be a number for type " + k.idlName());
            }
            final double d = n.doubleValue();
            if (k == PrimKind.FLOAT32 && Double.isFinite(d) && Math.abs(d) > Float.MAX_VALUE)
            {
                throw new IdlException(pos, what + " value " + d + " is out of range for float");
            }
            return d;
        }
        if (k == PrimKind.BOOLEAN)
        {
            if (!(v instanceof Boolean))
            {
                throw new IdlException(pos, what + " must be TRUE or FALSE");
            }
            return v;
        }
        if (!(v instanceof Character c))
        {
            throw new IdlException(pos, what + " must be a character literal");
        }
        if (k == PrimKind.CHAR && c > 0xff)
        {
            throw new IdlException(pos, what + " character is out of range for char");
        }
        return c;
    }
}
