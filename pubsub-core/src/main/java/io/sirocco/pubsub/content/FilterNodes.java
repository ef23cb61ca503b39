package io.sirocco.pubsub.content;

import java.lang.invoke.MethodHandle;

/**
 * The node kinds of a compiled condition. Each comparison reads its member through a method handle typed exactly
 * ({@code (Object)long}, {@code (Object)double} or {@code (Object)Object}) and compares without boxing. Every node is
 * immutable: new parameter values compile a new tree ({@link ContentFilter#setParameters}).
 */
final class FilterNodes
{
    private FilterNodes()
    {
    }

    static boolean longs(final Ast.RelOp op, final long a, final long b)
    {
        return switch (op)
        {
            case EQ -> a == b;
            case NE -> a != b;
            case LT -> a < b;
            case LE -> a <= b;
            case GT -> a > b;
            case GE -> a >= b;
            case LIKE -> false;
        };
    }

    /** IEEE comparisons: NaN is unequal to everything, so only {@code <>} holds for it. */
    static boolean doubles(final Ast.RelOp op, final double a, final double b)
    {
        return switch (op)
        {
            case EQ -> a == b;
            case NE -> a != b;
            case LT -> a < b;
            case LE -> a <= b;
            case GT -> a > b;
            case GE -> a >= b;
            case LIKE -> false;
        };
    }

    static boolean compared(final Ast.RelOp op, final int cmp)
    {
        return longs(op, cmp, 0);
    }

    /** A failure to read a value makes the predicate false; errors of the JVM itself pass. */
    static boolean unreadable(final Throwable t)
    {
        if (t instanceof Error e)
        {
            throw e;
        }
        return false;
    }

    record And(FilterNode left, FilterNode right) implements FilterNode
    {
        @Override
        public boolean test(final Object root)
        {
            return left.test(root) && right.test(root);
        }
    }

    record Or(FilterNode left, FilterNode right) implements FilterNode
    {
        @Override
        public boolean test(final Object root)
        {
            return left.test(root) || right.test(root);
        }
    }

    record Not(FilterNode operand) implements FilterNode
    {
        @Override
        public boolean test(final Object root)
        {
            return !operand.test(root);
        }
    }

    /** An integral or char member against a constant. {@code field} is {@code (Object)long}. */
    record LongConst(MethodHandle field, Ast.RelOp op, long constant) implements FilterNode
    {
        @Override
        public boolean test(final Object root)
        {
            try
            {
                return longs(op, (long)field.invokeExact(root), constant);
            }
            catch (final Throwable t)
            {
                return unreadable(t);
            }
        }
    }

    /** A numeric member against a constant, in double. {@code field} is {@code (Object)double}. */
    record DoubleConst(MethodHandle field, Ast.RelOp op, double constant) implements FilterNode
    {
        @Override
        public boolean test(final Object root)
        {
            try
            {
                return doubles(op, (double)field.invokeExact(root), constant);
            }
            catch (final Throwable t)
            {
                return unreadable(t);
            }
        }
    }

    /** A string, enum or boolean member against a constant of its class. {@code field} is {@code (Object)Object}. */
    record ObjectConst(MethodHandle field, Ast.RelOp op, Comparable<Object> constant) implements FilterNode
    {
        @Override
        public boolean test(final Object root)
        {
            try
            {
                final Object value = (Object)field.invokeExact(root);
                return value != null && compared(op, -Integer.signum(constant.compareTo(value)));
            }
            catch (final Throwable t)
            {
                return unreadable(t);
            }
        }
    }

    /** A string member LIKE a pattern. {@code field} is {@code (Object)Object}. */
    record Like(MethodHandle field, LikePattern pattern) implements FilterNode
    {
        @Override
        public boolean test(final Object root)
        {
            try
            {
                final Object value = (Object)field.invokeExact(root);
                return value != null && pattern.matches((String)value);
            }
            catch (final Throwable t)
            {
                return unreadable(t);
            }
        }
    }

    /** Two integral or char members. Both handles are {@code (Object)long}. */
    record LongFields(MethodHandle left, Ast.RelOp op, MethodHandle right) implements FilterNode
    {
        @Override
        public boolean test(final Object root)
        {
            try
            {
                return longs(op, (long)left.invokeExact(root), (long)right.invokeExact(root));
            }
            catch (final Throwable t)
            {
                return unreadable(t);
            }
        }
    }

    /** Two numeric members, one of them floating. Both handles are {@code (Object)double}. */
    record DoubleFields(MethodHandle left, Ast.RelOp op, MethodHandle right) implements FilterNode
    {
        @Override
        public boolean test(final Object root)
        {
            try
            {
                return doubles(op, (double)left.invokeExact(root), (double)right.invokeExact(root));
            }
            catch (final Throwable t)
            {
                return unreadable(t);
            }
        }
    }

    /** Two string, enum or boolean members of the same class. Both handles are {@code (Object)Object}. */
    record ObjectFields(MethodHandle left, Ast.RelOp op, MethodHandle right) implements FilterNode
    {
        @Override
        @SuppressWarnings("unchecked")
        public boolean test(final Object root)
        {
            try
            {
                final Object a = (Object)left.invokeExact(root);
                final Object b = (Object)right.invokeExact(root);
                return a != null && b != null && compared(op, ((Comparable<Object>)a).compareTo(b));
            }
            catch (final Throwable t)
            {
                return unreadable(t);
            }
        }
    }
}
