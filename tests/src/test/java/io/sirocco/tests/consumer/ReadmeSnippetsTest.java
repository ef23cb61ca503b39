package io.sirocco.tests.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The code in the README's "Use Sirocco in your project" is the code {@link ConsumerProjectTest} builds and runs:
 * every fenced {@code java}, {@code idl} and {@code xml} block of the README appears, line for line (indentation
 * aside), in a file of {@code examples/consumer}.
 */
class ReadmeSnippetsTest
{
    private static final Pattern FENCED = Pattern.compile("```(java|idl|xml)\\n(.*?)```", Pattern.DOTALL);

    @Test
    void everySnippetComesFromTheConsumerProject() throws IOException
    {
        final Path root = Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent();
        final String readme = Files.readString(root.resolve("README.md"));
        final List<String> sources = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(root.resolve("examples/consumer")))
        {
            for (final Path p : walk.filter(Files::isRegularFile).filter(p -> !p.toString().contains("/target/"))
                .toList())
            {
                sources.add(normalized(Files.readString(p)));
            }
        }
        final Matcher m = FENCED.matcher(readme);
        int snippets = 0;
        while (m.find())
        {
            final String snippet = normalized(m.group(2));
            assertThat(sources).as("a file of examples/consumer holding the README's %s snippet:%n%s", m.group(1),
                m.group(2)).anyMatch(source -> source.contains(snippet));
            snippets++;
        }
        assertThat(snippets).as("java, idl and xml snippets in the README").isGreaterThanOrEqualTo(5);
    }

    /** Lines stripped of indentation and trailing space, so that a snippet may be dedented. */
    private static String normalized(final String text)
    {
        return text.lines().map(String::strip).collect(Collectors.joining("\n"));
    }
}
