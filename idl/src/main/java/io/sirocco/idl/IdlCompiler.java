package io.sirocco.idl;

import io.sirocco.idl.gen.GeneratorOptions;
import io.sirocco.idl.gen.JavaGenerator;
import io.sirocco.idl.model.Decl;
import io.sirocco.idl.model.Decls;
import io.sirocco.idl.model.IdlException;
import io.sirocco.idl.model.SourcePos;
import io.sirocco.idl.parse.Parser;
import io.sirocco.idl.parse.Preprocessor;
import io.sirocco.idl.parse.Resolver;
import io.sirocco.idl.parse.Token;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The compiler's entry point: preprocess, parse, resolve, generate. All files given in one call form one
 * compilation (shared scopes, each include read once). Nothing is written unless everything compiled.
 */
public final class IdlCompiler
{
    private final List<Path> includeDirs;
    private final GeneratorOptions options;
    private final Map<Path, String> inMemory;

    public IdlCompiler(final List<Path> includeDirs, final GeneratorOptions options)
    {
        this(includeDirs, options, null);
    }

    /** @param inMemory file contents by absolute normalized path, consulted before the disk (tests). */
    public IdlCompiler(final List<Path> includeDirs, final GeneratorOptions options, final Map<Path, String> inMemory)
    {
        this.includeDirs = List.copyOf(includeDirs);
        this.options = options;
        this.inMemory = inMemory;
    }

    /** Compiles the files and returns the generated sources by relative path. */
    public Map<String, String> compile(final List<Path> files) throws IdlException
    {
        try
        {
            final List<Token> tokens = new Preprocessor(includeDirs, inMemory).run(files);
            final Parser parser = new Parser(tokens).parse();
            final Resolver resolver = new Resolver().resolve(parser.topLevel(), parser.keylists());
            final List<Decls.Const> constants = new ArrayList<>();
            for (final Decl d : resolver.symbols().values())
            {
                if (d instanceof Decls.Const c)
                {
                    constants.add(c);
                }
            }
            return new JavaGenerator(options).generate(resolver.types(), constants);
        }
        catch (final StackOverflowError ex)
        {
            throw new IdlException(new SourcePos(files.isEmpty() ? "<none>" : files.getFirst().toString(), 1, 1),
                "input is nested too deeply to compile");
        }
    }

    /**
     * Writes the sources under {@code outDir}: first into a staging directory beside it, then moved into place, so a
     * failure leaves no half-written package.
     */
    public static void write(final Map<String, String> sources, final Path outDir) throws IOException
    {
        Files.createDirectories(outDir);
        final Path staging = Files.createTempDirectory(outDir, ".idl-staging-");
        try
        {
            for (final Map.Entry<String, String> e : sources.entrySet())
            {
                final Path p = staging.resolve(e.getKey());
                Files.createDirectories(p.getParent());
                Files.writeString(p, e.getValue(), StandardCharsets.UTF_8);
            }
            for (final String relative : sources.keySet())
            {
                final Path target = outDir.resolve(relative);
                Files.createDirectories(target.getParent());
                Files.move(staging.resolve(relative), target, StandardCopyOption.REPLACE_EXISTING);
            }
        }
        finally
        {
            try (Stream<Path> walk = Files.walk(staging))
            {
                for (final Path p : walk.sorted(Comparator.reverseOrder()).toList())
                {
                    Files.deleteIfExists(p);
                }
            }
        }
    }
}
