package io.sirocco.idl;

import io.sirocco.dds.type.TypeCodec;
import io.sirocco.idl.gen.GeneratorOptions;
import io.sirocco.idl.model.IdlException;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Test support: compiles IDL with the Sirocco compiler, compiles the generated Java with javac
 * ({@code -Xlint:all -Werror}), and loads the classes.
 */
public final class Generated
{
    public static final Path CORPUS = Path.of("src/test/resources/corpus");

    private static Generated corpus;
    private static Generated corpusForRelease21;

    private final Map<String, String> sources;
    private final ClassLoader loader;
    private final List<String> javacDiagnostics;

    private Generated(final Map<String, String> sources, final ClassLoader loader, final List<String> diagnostics)
    {
        this.sources = sources;
        this.loader = loader;
        this.javacDiagnostics = diagnostics;
    }

    public static List<Path> corpusFiles()
    {
        try (Stream<Path> files = Files.list(CORPUS))
        {
            return files.filter(p -> p.toString().endsWith(".idl")).sorted().toList();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /** The whole corpus as one compilation, with random-sample support; compiled once per test JVM. */
    public static synchronized Generated corpus() throws IdlException
    {
        if (corpus == null)
        {
            corpus = compile(corpusFiles(), Map.of());
        }
        return corpus;
    }

    /**
     * The whole corpus generated for a Java 21 target and compiled with {@code javac --release 21}; compiled once
     * per test JVM.
     */
    public static synchronized Generated corpusForRelease21() throws IdlException
    {
        if (corpusForRelease21 == null)
        {
            corpusForRelease21 = compile(corpusFiles(), Map.of(), new GeneratorOptions("", "glob", true, 21),
                List.of("--release", "21"));
        }
        return corpusForRelease21;
    }

    /** Compiles IDL text given by file name (files may include each other by name). */
    public static Generated fromText(final Map<String, String> idlByName) throws IdlException
    {
        final Path dir = Path.of("/in-memory").toAbsolutePath();
        final Map<Path, String> inMemory = new TreeMap<>();
        final List<Path> files = new ArrayList<>();
        for (final Map.Entry<String, String> e : idlByName.entrySet())
        {
            inMemory.put(dir.resolve(e.getKey()).normalize(), e.getValue());
            files.add(dir.resolve(e.getKey()));
        }
        return compile(files, inMemory);
    }

    public static Generated fromText(final String idl) throws IdlException
    {
        return fromText(Map.of("test.idl", idl));
    }

    private static Generated compile(final List<Path> files, final Map<Path, String> inMemory) throws IdlException
    {
        return compile(files, inMemory, new GeneratorOptions("", "glob", true), List.of());
    }

    private static Generated compile(final List<Path> files, final Map<Path, String> inMemory,
        final GeneratorOptions generatorOptions, final List<String> javacOptions) throws IdlException
    {
        final Map<String, String> sources = new IdlCompiler(List.of(CORPUS), generatorOptions, inMemory)
            .compile(files);
        return javac(sources, javacOptions);
    }

    /**
     * Compiles generated sources with {@code -Xlint:all -Werror} and the given javac options, and loads them; an
     * AssertionError lists javac's messages when they do not compile.
     */
    public static Generated javac(final Map<String, String> sources, final List<String> javacOptions)
    {
        try
        {
            final Path src = Files.createTempDirectory("idl-gen-src");
            final Path out = Files.createTempDirectory("idl-gen-classes");
            final List<Path> javaFiles = new ArrayList<>();
            for (final Map.Entry<String, String> e : sources.entrySet())
            {
                final Path p = src.resolve(e.getKey());
                Files.createDirectories(p.getParent());
                Files.writeString(p, e.getValue());
                javaFiles.add(p);
            }
            final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
            final DiagnosticCollector<JavaFileObject> collector = new DiagnosticCollector<>();
            final List<String> messages = new ArrayList<>();
            try (StandardJavaFileManager fm = javac.getStandardFileManager(collector, null, null))
            {
                final List<String> options = new ArrayList<>(List.of("-Xlint:all", "-Werror", "-proc:none", "-d",
                    out.toString(), "-cp", System.getProperty("java.class.path")));
                options.addAll(javacOptions);
                final boolean ok = javac.getTask(null, fm, collector, options, null,
                    fm.getJavaFileObjectsFromPaths(javaFiles)).call();
                for (final Diagnostic<? extends JavaFileObject> d : collector.getDiagnostics())
                {
                    messages.add(d.getKind() + " " + (d.getSource() == null ? "" : d.getSource().getName()) + ":"
                        + d.getLineNumber() + ": " + d.getMessage(null));
                }
                if (!ok)
                {
                    throw new AssertionError("generated code does not compile:\n" + String.join("\n", messages));
                }
            }
            final ClassLoader loader = new URLClassLoader(new URL[] {out.toUri().toURL()},
                Generated.class.getClassLoader());
            return new Generated(sources, loader, messages);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    public Map<String, String> sources()
    {
        return sources;
    }

    public List<String> javacDiagnostics()
    {
        return javacDiagnostics;
    }

    public Class<?> type(final String fqn)
    {
        try
        {
            return Class.forName(fqn, true, loader);
        }
        catch (final ClassNotFoundException ex)
        {
            throw new AssertionError("no generated class " + fqn, ex);
        }
    }

    @SuppressWarnings("unchecked")
    public TypeCodec<Object> codec(final String typeFqn)
    {
        try
        {
            return (TypeCodec<Object>)type(typeFqn + "TypeSupport").getField("INSTANCE").get(null);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new AssertionError(ex);
        }
    }

    /** Every generated TypeSupport, by type class name. */
    public Map<String, TypeCodec<Object>> codecs()
    {
        final Map<String, TypeCodec<Object>> codecs = new TreeMap<>();
        for (final String path : sources.keySet())
        {
            if (path.endsWith("TypeSupport.java"))
            {
                final String fqn = path.substring(0, path.length() - "TypeSupport.java".length()).replace('/', '.');
                codecs.put(fqn, codec(fqn));
            }
        }
        return codecs;
    }

    public Object randomSample(final String typeFqn, final java.util.random.RandomGenerator g)
    {
        try
        {
            return type(typeFqn + "TypeSupport").getMethod("randomSample", java.util.random.RandomGenerator.class)
                .invoke(null, g);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new AssertionError(ex);
        }
    }

    /** A new sample with the given public fields set (for known-answer tests). */
    public Object sample(final String typeFqn, final Object... fieldValuePairs)
    {
        try
        {
            final Object o = type(typeFqn).getConstructor().newInstance();
            for (int i = 0; i < fieldValuePairs.length; i += 2)
            {
                set(o, (String)fieldValuePairs[i], fieldValuePairs[i + 1]);
            }
            return o;
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new AssertionError(ex);
        }
    }

    public static void set(final Object target, final String field, final Object value)
    {
        try
        {
            final Field f = target.getClass().getField(field);
            f.set(target, value);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new AssertionError(ex);
        }
    }

    public static Object get(final Object target, final String field)
    {
        try
        {
            return target.getClass().getField(field).get(target);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new AssertionError(ex);
        }
    }
}
