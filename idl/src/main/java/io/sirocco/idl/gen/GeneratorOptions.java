package io.sirocco.idl.gen;

/**
 * Options of the Java generator.
 *
 * @param packagePrefix prepended to every module-derived package ("" for none).
 * @param globalPackage the package of definitions at global scope ("" keeps them in the unnamed package, or in
 *        {@code packagePrefix} when that is set).
 * @param randomSamples also emit {@code <Type>TypeSupport.randomSample(RandomGenerator)}, for property tests.
 */
public record GeneratorOptions(String packagePrefix, String globalPackage, boolean randomSamples)
{
    public static GeneratorOptions defaults()
    {
        return new GeneratorOptions("", "", false);
    }
}
