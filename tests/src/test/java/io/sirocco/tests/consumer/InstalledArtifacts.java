package io.sirocco.tests.consumer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A private Maven repository holding what {@code ./mvnw install} would install of Sirocco for a user's project: the
 * parent pom and the jar and pom of every module that project needs (pubsub-core and below, the IDL compiler and its
 * Maven plugin), copied from the reactor's {@code target/} directories in the local-repository layout. Third-party
 * artifacts come from the shared repository, used read-only as Maven's tail repository.
 */
final class InstalledArtifacts
{
    /** Module directory and artifact id of everything a consumer of pubsub-core and the IDL plugin resolves. */
    private static final List<String[]> MODULES = List.of(
        new String[] {"messaging-transport", "messaging-transport"},
        new String[] {"atomic-multicast", "atomic-multicast"},
        new String[] {"durable-log", "durable-log"},
        new String[] {"dds-api", "dds-api"},
        new String[] {"idl", "idl"},
        new String[] {"idl/idl-maven-plugin", "idl-maven-plugin"},
        new String[] {"pubsub-core", "pubsub-core"});

    private static final Pattern PARENT_VERSION =
        Pattern.compile("<artifactId>sirocco-parent</artifactId>\\s*<version>([^<]+)</version>");

    private InstalledArtifacts()
    {
    }

    /** The version the reactor builds, from the root pom. */
    static String version(final Path root) throws IOException
    {
        final Matcher m = PARENT_VERSION.matcher(Files.readString(root.resolve("pom.xml")));
        if (!m.find())
        {
            throw new IllegalStateException("no sirocco-parent version in " + root.resolve("pom.xml"));
        }
        return m.group(1);
    }

    /** Lays out the parent pom and every module's pom and jar under {@code repo}. */
    static void install(final Path root, final Path repo) throws IOException
    {
        final String version = version(root);
        put(repo, "sirocco-parent", version, root.resolve("pom.xml"), null);
        for (final String[] module : MODULES)
        {
            final Path dir = root.resolve(module[0]);
            final Path jar = dir.resolve("target").resolve(module[1] + "-" + version + ".jar");
            if (!Files.isRegularFile(jar))
            {
                throw new IllegalStateException(jar + " is missing: build the reactor first (./mvnw -B verify, or "
                    + "-pl tests -am)");
            }
            put(repo, module[1], version, dir.resolve("pom.xml"), jar);
        }
    }

    private static void put(final Path repo, final String artifactId, final String version, final Path pom,
        final Path jar) throws IOException
    {
        final Path dir = repo.resolve("io/sirocco").resolve(artifactId).resolve(version);
        Files.createDirectories(dir);
        final String base = artifactId + "-" + version;
        Files.copy(pom, dir.resolve(base + ".pom"), StandardCopyOption.REPLACE_EXISTING);
        if (jar != null)
        {
            Files.copy(jar, dir.resolve(base + ".jar"), StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
