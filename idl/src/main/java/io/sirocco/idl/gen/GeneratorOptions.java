package io.sirocco.idl.gen;

/**
 * Options of the Java generator.
 *
 * @param packagePrefix prepended to every module-derived package ("" for none).
 * @param globalPackage the package of definitions at global scope ("" keeps them in the unnamed package, or in
 *        {@code packagePrefix} when that is set).
 * @param randomSamples also emit {@code <Type>TypeSupport.randomSample(RandomGenerator)}, for property tests.
 * @param release the Java release the generated sources must compile with ({@code javac --release}), at least
 *        {@link #MIN_RELEASE}. Below {@link #FOREIGN_RELEASE} they name no {@code java.lang.foreign} type (a preview
 *        API in Java 21): codecs extend {@code io.sirocco.dds.type.cdr.BodyCodec} and no flat views are made.
 */
public record GeneratorOptions(String packagePrefix, String globalPackage, boolean randomSamples, int release)
{
    /** The oldest release the generated sources compile with. */
    public static final int MIN_RELEASE = 21;
    /** The first release in which {@code java.lang.foreign} is final (JEP 454). */
    public static final int FOREIGN_RELEASE = 22;
    /** The release of the full form: the JDK Sirocco is built with. */
    public static final int DEFAULT_RELEASE = 25;

    public GeneratorOptions
    {
        if (release < MIN_RELEASE)
        {
            throw new IllegalArgumentException("generated types need Java " + MIN_RELEASE + " or later (release "
                + release + " was asked for)");
        }
    }

    /** The full form, for the JDK Sirocco is built with. */
    public GeneratorOptions(final String packagePrefix, final String globalPackage, final boolean randomSamples)
    {
        this(packagePrefix, globalPackage, randomSamples, DEFAULT_RELEASE);
    }

    public static GeneratorOptions defaults()
    {
        return new GeneratorOptions("", "", false);
    }

    /** Whether the generated sources may use {@code java.lang.foreign}: codecs over it directly, and flat views. */
    public boolean foreign()
    {
        return release >= FOREIGN_RELEASE;
    }
}
