package io.sirocco.pubsub.content;

import io.sirocco.dds.type.DataRepresentation;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteOrder;
import java.util.List;

/**
 * Reads the members a filter needs straight from a serialized sample, through the IDL compiler's generated
 * {@code <Type>Flat} flyweight (fixed-size types: a nested member {@code a.b} is its accessor {@code a_b()}, an array
 * element {@code a[i]} is {@code a(i)}), so that a sample the filter rejects is never deserialized. Samples in
 * another representation than the view's, or shorter than it, are left to the deserializing path.
 *
 * <p>Concurrency: holds one flyweight, re-pointed per sample; use it from one thread at a time (a reader's delivery,
 * under the reader's lock). {@link #resolve} may be called from any thread (it only builds handles).
 */
final class FlatView
{
    private static final ValueLayout.OfShort SHORT_BE =
        ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private final Class<?> flatClass;
    private final Object flyweight;
    private final MethodHandle wrap;
    private final long size;
    private final short encapsulationId;

    private FlatView(final Class<?> flatClass) throws ReflectiveOperationException
    {
        this.flatClass = flatClass;
        this.flyweight = flatClass.getConstructor().newInstance();
        this.wrap = MethodHandles.publicLookup().findVirtual(flatClass, "wrap",
            MethodType.methodType(flatClass, MemorySegment.class, long.class))
            .asType(MethodType.methodType(void.class, Object.class, MemorySegment.class, long.class));
        this.size = ((Number)flatClass.getField("SIZE").get(null)).longValue();
        this.encapsulationId = (short)((DataRepresentation)flatClass.getField("REPRESENTATION").get(null))
            .encapsulationId();
    }

    /** The flat view of samples of {@code type}, or null when the IDL compiler made none (not fixed-size). */
    static FlatView of(final Class<?> type)
    {
        try
        {
            return new FlatView(Class.forName(type.getName() + "Flat", true, type.getClassLoader()));
        }
        catch (final ReflectiveOperationException | RuntimeException ex)
        {
            return null;
        }
    }

    /** A new view over the same class, for another thread. */
    FlatView copy()
    {
        try
        {
            return new FlatView(flatClass);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * The flyweight pointed at the sample at {@code offset}, or null when the bytes are not a sample of this view
     * (other representation, too short).
     */
    Object wrap(final MemorySegment segment, final long offset, final long length)
    {
        if (length < size || segment.get(SHORT_BE, offset) != encapsulationId)
        {
            return null;
        }
        try
        {
            wrap.invokeExact(flyweight, segment, offset);
            return flyweight;
        }
        catch (final Throwable t)
        {
            return FilterNodes.unreadable(t) ? flyweight : null;
        }
    }

    /**
     * The flat accessor of a member path whose deserialized accessor is {@code viaObject}, or null when the view
     * has none of that type (the filter then deserializes).
     */
    FieldAccess resolve(final Ast.Name name, final FieldAccess viaObject)
    {
        final List<Ast.Step> steps = name.steps();
        final StringBuilder method = new StringBuilder();
        for (int i = 0; i < steps.size(); i++)
        {
            if (steps.get(i).index() >= 0 && i + 1 < steps.size())
            {
                return null;
            }
            method.append(i == 0 ? "" : "_").append(steps.get(i).member());
        }
        final int index = steps.get(steps.size() - 1).index();
        try
        {
            MethodHandle handle = index < 0 ?
                MethodHandles.publicLookup().findVirtual(flatClass, method.toString(),
                    MethodType.methodType(viaObject.leafType())) :
                MethodHandles.insertArguments(MethodHandles.publicLookup().findVirtual(flatClass, method.toString(),
                    MethodType.methodType(viaObject.leafType(), int.class)), 1, index);
            handle = handle.asType(MethodType.methodType(viaObject.leafType(), Object.class));
            return new FieldAccess(handle, viaObject.leafType(), viaObject.path());
        }
        catch (final ReflectiveOperationException ex)
        {
            return null;
        }
    }
}
