package io.sirocco.pubsub.content;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.util.List;
import java.util.function.Function;

/**
 * Compiles a parsed condition into a {@link FilterNode} tree for one topic type and one set of parameter values:
 * member paths become method handles ({@code members}: over the deserialized sample, or over its flat view), and
 * constants are converted to the member's kind, so that evaluation does no lookup, parsing or boxing.
 *
 * <p>Type rules: a predicate compares a member with a constant (either side) or with another member of a compatible
 * kind; a bare name next to an enum member that is one of its enumerators is that enumerator; LIKE needs a string
 * member and a string constant; BETWEEN needs a member on the left.
 */
final class FilterCompiler
{
    private final String expression;
    private final Constants constants;
    private final Function<Ast.Name, FieldAccess> members;
    private final Class<?> sampleType;

    /**
     * @param members resolves a name to its accessor, or returns null when its first member is not one of the type
     *                (so that it may be an enumerator).
     */
    FilterCompiler(final String expression, final List<String> parameters, final Class<?> sampleType,
        final Function<Ast.Name, FieldAccess> members)
    {
        this.expression = expression;
        this.sampleType = sampleType;
        this.constants = new Constants(expression, parameters);
        this.members = members;
    }

    FilterNode compile(final Ast.Condition condition)
    {
        return switch (condition)
        {
            case Ast.And a -> new FilterNodes.And(compile(a.left()), compile(a.right()));
            case Ast.Or o -> new FilterNodes.Or(compile(o.left()), compile(o.right()));
            case Ast.Not n -> new FilterNodes.Not(compile(n.operand()));
            case Ast.Compare c -> compare(c);
            case Ast.Between b -> between(b);
        };
    }

    private FilterNode between(final Ast.Between between)
    {
        final FieldAccess field = member(between.field());
        if (field == null)
        {
            throw new FilterSyntaxException(expression, between.field().position(), "BETWEEN needs a field on its " +
                "left");
        }
        final FilterNode range = new FilterNodes.And(withConstant(field, Ast.RelOp.GE, between.low(),
            between.position()), withConstant(field, Ast.RelOp.LE, between.high(), between.position()));
        return between.negated() ? new FilterNodes.Not(range) : range;
    }

    private FilterNode compare(final Ast.Compare compare)
    {
        final FieldAccess left = member(compare.left());
        final FieldAccess right = member(compare.right());
        if (left != null && right != null)
        {
            return fields(left, compare.op(), right, compare.position());
        }
        if (left != null)
        {
            return withConstant(left, compare.op(), compare.right(), compare.position());
        }
        if (right != null)
        {
            if (compare.op() == Ast.RelOp.LIKE)
            {
                throw new FilterSyntaxException(expression, compare.position(), "LIKE needs the field on its left");
            }
            return withConstant(right, compare.op().mirrored(), compare.left(), compare.position());
        }
        if (compare.left() instanceof Ast.Name name)
        {
            throw unknownField(name);
        }
        if (compare.right() instanceof Ast.Name name)
        {
            throw unknownField(name);
        }
        throw new FilterSyntaxException(expression, compare.position(), "a comparison needs a field on one side");
    }

    /** The accessor of a name operand; null for a literal, a parameter, or a name that may be an enumerator. */
    private FieldAccess member(final Ast.Operand operand)
    {
        if (!(operand instanceof Ast.Name name))
        {
            return null;
        }
        final FieldAccess access = members.apply(name);
        if (access == null && !name.simple())
        {
            throw unknownField(name);
        }
        return access;
    }

    private FilterSyntaxException unknownField(final Ast.Name name)
    {
        return FieldAccess.unknown(expression, name, name.steps().get(0).member(), sampleType);
    }

    private FilterNode withConstant(final FieldAccess field, final Ast.RelOp op, final Ast.Operand operand,
        final int position)
    {
        final ValueKind kind = ValueKind.of(field.leafType());
        if (operand instanceof Ast.Name name && kind != ValueKind.ENUM)
        {
            throw unknownField(name);
        }
        if (op == Ast.RelOp.LIKE && kind != ValueKind.STRING)
        {
            throw new FilterSyntaxException(expression, position, "LIKE needs a string member, but '" +
                field.path() + "' is " + field.leafType().getSimpleName());
        }
        final Constants.Value value = constants.of(operand, field);
        if (op == Ast.RelOp.LIKE)
        {
            return new FilterNodes.Like(typed(field, Object.class), new LikePattern((String)value.object()));
        }
        if (value.floating())
        {
            return new FilterNodes.DoubleConst(typed(field, double.class), op, value.d());
        }
        if (kind.asLong())
        {
            return new FilterNodes.LongConst(typed(field, long.class), op, value.l());
        }
        @SuppressWarnings("unchecked")
        final Comparable<Object> constant = (Comparable<Object>)value.object();
        return new FilterNodes.ObjectConst(typed(field, Object.class), op, constant);
    }

    private FilterNode fields(final FieldAccess left, final Ast.RelOp op, final FieldAccess right,
        final int position)
    {
        final ValueKind a = ValueKind.of(left.leafType());
        final ValueKind b = ValueKind.of(right.leafType());
        final boolean numeric = (a == ValueKind.INTEGRAL || a == ValueKind.FLOATING) &&
            (b == ValueKind.INTEGRAL || b == ValueKind.FLOATING);
        if (op == Ast.RelOp.LIKE)
        {
            throw new FilterSyntaxException(expression, position, "LIKE needs a string literal or parameter as its " +
                "pattern, not the field '" + right.path() + "'");
        }
        if (numeric && a == ValueKind.INTEGRAL && b == ValueKind.INTEGRAL)
        {
            return new FilterNodes.LongFields(typed(left, long.class), op, typed(right, long.class));
        }
        if (numeric)
        {
            return new FilterNodes.DoubleFields(typed(left, double.class), op, typed(right, double.class));
        }
        if (a == b && a.asLong())
        {
            return new FilterNodes.LongFields(typed(left, long.class), op, typed(right, long.class));
        }
        if (a == b && a != ValueKind.OTHER && (a != ValueKind.ENUM || left.leafType() == right.leafType()))
        {
            return new FilterNodes.ObjectFields(typed(left, Object.class), op, typed(right, Object.class));
        }
        throw new FilterSyntaxException(expression, position, "member '" + left.path() + "' (" +
            left.leafType().getSimpleName() + ") cannot be compared with member '" + right.path() + "' (" +
            right.leafType().getSimpleName() + ")");
    }

    private static MethodHandle typed(final FieldAccess field, final Class<?> as)
    {
        return field.handle().asType(MethodType.methodType(as, Object.class));
    }
}
