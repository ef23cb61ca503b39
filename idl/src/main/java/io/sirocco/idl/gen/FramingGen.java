package io.sirocco.idl.gen;

/**
 * Emits the part of a {@code <Type>TypeSupport} that frames a sample: {@code serializedSize}, and the encapsulation
 * header around the body that the static {@code write} and {@code read} do. The full form (Java 22 and later)
 * implements {@code TypeCodec}'s {@code serialize} and {@code deserialize} over a {@code MemorySegment} itself; the
 * Java 21 form extends {@code io.sirocco.dds.type.cdr.BodyCodec}, which does that framing, and only hands it the
 * body methods, so that its source names no {@code java.lang.foreign} type.
 */
final class FramingGen
{
    private static final String CDR = "io.sirocco.dds.type.cdr.";
    private static final String REPRESENTATION = "io.sirocco.dds.type.DataRepresentation";

    private final boolean foreign;

    /** {@code foreign}: whether the generated source may name {@code java.lang.foreign} types. */
    FramingGen(final boolean foreign)
    {
        this.foreign = foreign;
    }

    /** What the codec class implements or extends, for its declaration line. */
    String supertype(final String cls)
    {
        return foreign ? "implements io.sirocco.dds.type.TypeCodec<" + cls + ">" : "extends " + CDR + "BodyCodec<"
            + cls + ">";
    }

    /** The private constructor's body: the Java 21 form hands its extensibility to the base class. */
    void constructorBody(final Src s)
    {
        if (!foreign)
        {
            s.line("super(EXTENSIBILITY);");
        }
    }

    /** serializedSize, then serialize and deserialize (full form) or the base class's body hooks (Java 21). */
    void serialization(final Src s, final String cls)
    {
        serializedSize(s, cls);
        if (foreign)
        {
            overSegments(s, cls);
        }
        else
        {
            bodyHooks(s, cls);
        }
    }

    private static void serializedSize(final Src s, final String cls)
    {
        s.line("");
        s.line("@Override");
        s.line("public long serializedSize(final " + cls + " sample, final " + REPRESENTATION + " representation)");
        s.open();
        s.line("final long constant = representation.xcdrVersion() == 1 ? CONSTANT_BODY_SIZE_XCDR1 : "
            + "CONSTANT_BODY_SIZE_XCDR2;");
        s.line("if (constant >= 0)");
        s.open();
        s.line("return " + CDR + "Xcdr.ENCAPSULATION_HEADER_SIZE + constant;");
        s.close();
        s.line("final " + CDR + "CdrWriter w = " + CDR + "CdrWriter.local().resetMeasure(representation.xcdrVersion());");
        s.line("write(w, sample);");
        s.line("return " + CDR + "Xcdr.ENCAPSULATION_HEADER_SIZE + w.length();");
        s.close();
    }

    private static void overSegments(final Src s, final String cls)
    {
        s.line("");
        s.line("@Override");
        s.line("public long serialize(final " + cls + " sample, final java.lang.foreign.MemorySegment destination, "
            + "final long offset,");
        s.line("    final " + REPRESENTATION + " representation)");
        s.open();
        s.line("final int version = representation.xcdrVersion();");
        s.line(CDR + "Encapsulation.write(destination, offset, " + CDR + "Xcdr.representationFor(EXTENSIBILITY, "
            + "version, representation.bigEndian()));");
        s.line("final " + CDR + "CdrWriter w = " + CDR + "CdrWriter.local().reset(destination, offset + " + CDR
            + "Xcdr.ENCAPSULATION_HEADER_SIZE, representation.bigEndian(), version);");
        s.line("write(w, sample);");
        s.line("return w.position() - offset;");
        s.close();
        s.line("");
        s.line("@Override");
        s.line("public " + cls + " deserialize(final java.lang.foreign.MemorySegment source, final long offset, "
            + "final long length, final " + cls + " reuse)");
        s.open();
        s.line("final " + REPRESENTATION + " representation = " + CDR + "Encapsulation.read(source, offset, length);");
        s.line("final " + CDR + "CdrReader r = " + CDR + "CdrReader.local().reset(source, offset + " + CDR
            + "Xcdr.ENCAPSULATION_HEADER_SIZE, offset + length, representation.bigEndian(), "
            + "representation.xcdrVersion());");
        s.line("return read(r, reuse);");
        s.close();
    }

    private static void bodyHooks(final Src s, final String cls)
    {
        s.line("");
        s.line("@Override");
        s.line("protected void writeBody(final " + CDR + "CdrWriter writer, final " + cls + " sample)");
        s.open();
        s.line("write(writer, sample);");
        s.close();
        s.line("");
        s.line("@Override");
        s.line("protected " + cls + " readBody(final " + CDR + "CdrReader reader, final " + cls + " reuse)");
        s.open();
        s.line("return read(reader, reuse);");
        s.close();
    }
}
