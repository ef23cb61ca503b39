package io.sirocco.dds.type.cdr;

import io.sirocco.dds.type.DataRepresentation;
import io.sirocco.dds.type.TypeCodec;

import java.lang.foreign.MemorySegment;

/**
 * The base of codecs the IDL compiler generates for a Java 21 target ({@code idl-maven-plugin}'s {@code release}
 * 21, {@code sirocco idl --release 21}): it frames a sample (encapsulation header, then the body) over a
 * {@link MemorySegment}, so that the generated subclass supplies only the body's {@link #writeBody} and
 * {@link #readBody} and its source names no {@code java.lang.foreign} type, which {@code javac --release 21}
 * rejects as a preview API. The bytes are those of the codec generated for JDK 25 (a test compares them); the
 * extra virtual call per sample is the price of the older target.
 *
 * <h2>Threads</h2>
 * Stateless like every codec: the writer and reader are the per-thread {@link CdrWriter#local()} and
 * {@link CdrReader#local()}.
 *
 * @param <T> the generated Java class of the topic type.
 */
public abstract class BodyCodec<T> implements TypeCodec<T>
{
    private final int extensibility;

    /** {@code extensibility} is the type's {@link Xcdr#FINAL}, {@link Xcdr#APPENDABLE} or {@link Xcdr#MUTABLE}. */
    protected BodyCodec(final int extensibility)
    {
        this.extensibility = extensibility;
    }

    /** Writes the body: members, with the headers the type's extensibility needs (generated {@code write}). */
    protected abstract void writeBody(CdrWriter writer, T sample);

    /** Reads a body into {@code reuse}, or a new sample when null, and returns it (generated {@code read}). */
    protected abstract T readBody(CdrReader reader, T reuse);

    @Override
    public final long serialize(final T sample, final MemorySegment destination, final long offset,
        final DataRepresentation representation)
    {
        final int version = representation.xcdrVersion();
        Encapsulation.write(destination, offset,
            Xcdr.representationFor(extensibility, version, representation.bigEndian()));
        final CdrWriter writer = CdrWriter.local().reset(destination, offset + Xcdr.ENCAPSULATION_HEADER_SIZE,
            representation.bigEndian(), version);
        writeBody(writer, sample);
        return writer.position() - offset;
    }

    @Override
    public final T deserialize(final MemorySegment source, final long offset, final long length, final T reuse)
    {
        final DataRepresentation representation = Encapsulation.read(source, offset, length);
        final CdrReader reader = CdrReader.local().reset(source, offset + Xcdr.ENCAPSULATION_HEADER_SIZE,
            offset + length, representation.bigEndian(), representation.xcdrVersion());
        return readBody(reader, reuse);
    }
}
