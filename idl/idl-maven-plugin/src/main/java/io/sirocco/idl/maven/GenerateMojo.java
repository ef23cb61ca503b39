package io.sirocco.idl.maven;

import io.sirocco.idl.IdlCompiler;
import io.sirocco.idl.gen.GeneratorOptions;
import io.sirocco.idl.model.Diagnostic;
import io.sirocco.idl.model.IdlException;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Compiles {@code src/main/idl/**}{@code /*.idl} (one compilation, so files may include each other) into
 * {@code target/generated-sources/idl} and adds that directory as a compile source root. Errors fail the build with
 * {@code file:line:col: error: message} lines; the output directory is replaced only after a clean compile.
 *
 * <p>The generated sources compile with the project's {@code maven.compiler.release} (or the {@code release}
 * parameter): for 21 they leave out {@code java.lang.foreign}, a preview API in Java 21, and so the flat views; from
 * 22 on (and when neither is set) they are the full form.
 */
@Mojo(name = "generate", defaultPhase = LifecyclePhase.GENERATE_SOURCES, threadSafe = true)
public final class GenerateMojo extends AbstractMojo
{
    @Parameter(defaultValue = "${project.basedir}/src/main/idl", property = "sirocco.idl.sourceDirectory")
    private File sourceDirectory;

    @Parameter(defaultValue = "${project.build.directory}/generated-sources/idl",
        property = "sirocco.idl.outputDirectory")
    private File outputDirectory;

    /** Extra {@code #include} search directories; the source directory is always searched. */
    @Parameter
    private List<File> includeDirectories;

    /** Prepended to every module-derived Java package. */
    @Parameter(defaultValue = "", property = "sirocco.idl.packagePrefix")
    private String packagePrefix;

    /** The Java package of global-scope definitions (empty: the unnamed package, or the prefix). */
    @Parameter(defaultValue = "", property = "sirocco.idl.globalPackage")
    private String globalPackage;

    /**
     * The Java release the generated sources must compile with (at least 21); by default the project's
     * {@code maven.compiler.release}, else the full form for JDK 25.
     */
    @Parameter(defaultValue = "${maven.compiler.release}", property = "sirocco.idl.release")
    private String release;

    @Parameter(defaultValue = "false", property = "sirocco.idl.skip")
    private boolean skip;

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    private MavenProject project;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException
    {
        if (skip)
        {
            getLog().info("IDL generation skipped");
            return;
        }
        final Path source = sourceDirectory.toPath();
        if (!Files.isDirectory(source))
        {
            getLog().info("No IDL sources in " + source);
            return;
        }
        final List<Path> files;
        try (Stream<Path> walk = Files.walk(source))
        {
            files = walk.filter(p -> Files.isRegularFile(p) && p.toString().endsWith(".idl")).sorted().toList();
        }
        catch (final IOException ex)
        {
            throw new MojoExecutionException("cannot list " + source + ": " + ex.getMessage(), ex);
        }
        final List<Path> includes = includePaths(source);
        final GeneratorOptions options = new GeneratorOptions(nullToEmpty(packagePrefix), nullToEmpty(globalPackage),
            false, targetRelease());
        final Map<String, String> sources;
        try
        {
            sources = new IdlCompiler(includes, options).compile(files);
        }
        catch (final IdlException ex)
        {
            for (final Diagnostic d : ex.diagnostics())
            {
                getLog().error(d.toString());
            }
            throw new MojoFailureException("IDL compilation failed with " + ex.diagnostics().size() + " error(s):\n"
                + ex.getMessage());
        }
        final Path out = outputDirectory.toPath();
        try
        {
            deleteTree(out);
            IdlCompiler.write(sources, out);
        }
        catch (final IOException ex)
        {
            throw new MojoExecutionException("cannot write " + out + ": " + ex.getMessage(), ex);
        }
        getLog().info("Generated " + sources.size() + " Java files from " + files.size() + " IDL files into " + out);
        project.addCompileSourceRoot(out.toString());
    }

    /** The {@code #include} search path: the source directory, then {@code includeDirectories}. */
    private List<Path> includePaths(final Path source)
    {
        final List<Path> includes = new ArrayList<>();
        includes.add(source);
        if (includeDirectories != null)
        {
            for (final File f : includeDirectories)
            {
                includes.add(f.toPath());
            }
        }
        return includes;
    }

    /** The {@code release} parameter as a number; unset (or an unresolved expression) means the full form. */
    private int targetRelease() throws MojoFailureException
    {
        final String value = release == null ? "" : release.strip();
        if (value.isEmpty() || value.startsWith("${"))
        {
            return GeneratorOptions.DEFAULT_RELEASE;
        }
        final int number;
        try
        {
            number = Integer.parseInt(value);
        }
        catch (final NumberFormatException ex)
        {
            throw new MojoFailureException("idl-maven-plugin: release '" + value + "' is not a Java release number");
        }
        if (number < GeneratorOptions.MIN_RELEASE)
        {
            throw new MojoFailureException("idl-maven-plugin: release " + number + " (maven.compiler.release or the "
                + "plugin's release): generated types need Java " + GeneratorOptions.MIN_RELEASE + " or later");
        }
        return number;
    }

    private static String nullToEmpty(final String s)
    {
        return s == null ? "" : s;
    }

    private static void deleteTree(final Path dir) throws IOException
    {
        if (!Files.exists(dir))
        {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir))
        {
            for (final Path p : walk.sorted(Comparator.reverseOrder()).toList())
            {
                Files.delete(p);
            }
        }
    }
}
