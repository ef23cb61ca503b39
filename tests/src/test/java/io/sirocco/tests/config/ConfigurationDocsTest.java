package io.sirocco.tests.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.sirocco.transport.config.Setting;
import io.sirocco.transport.config.SettingsCatalog;
import io.sirocco.transport.config.UnknownSettings;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md against the code: every setting of every module's {@link SettingsCatalog} is documented,
 * every {@code sirocco.*} key the page names is one the code reads, and every key follows
 * {@code sirocco.<module>.<setting>} with its catalog's module.
 */
class ConfigurationDocsTest
{
    private static final Pattern KEY = Pattern.compile("`(sirocco\\.[A-Za-z0-9_.]+[A-Za-z0-9_])`");

    private static List<SettingsCatalog> catalogs()
    {
        return ServiceLoader.load(SettingsCatalog.class).stream().map(ServiceLoader.Provider::get).toList();
    }

    private static Set<String> documentedKeys() throws IOException
    {
        final String page = Files.readString(Path.of("..", "docs", "configuration.md"));
        final Set<String> keys = new TreeSet<>();
        final Matcher m = KEY.matcher(page);
        while (m.find())
        {
            keys.add(m.group(1));
        }
        return keys;
    }

    @Test
    void everyModuleHasACatalog()
    {
        assertThat(catalogs()).extracting(SettingsCatalog::module)
            .contains("transport", "multicast", "dds", "cli");
    }

    @Test
    void everySettingIsDocumented() throws IOException
    {
        final Set<String> documented = documentedKeys();
        final Set<String> missing = new TreeSet<>();
        for (final Setting setting : UnknownSettings.known())
        {
            if (!documented.contains(setting.key()))
            {
                missing.add(setting.key());
            }
        }
        assertThat(missing).as("settings the code reads and docs/configuration.md does not list").isEmpty();
    }

    @Test
    void everyDocumentedKeyIsASetting() throws IOException
    {
        final Set<String> known = new TreeSet<>();
        UnknownSettings.known().forEach(s -> known.add(s.key()));
        final Set<String> stale = new TreeSet<>(documentedKeys());
        stale.removeAll(known);
        assertThat(stale).as("keys docs/configuration.md names that no module reads").isEmpty();
    }

    @Test
    void everyKeyNamesItsModule()
    {
        for (final SettingsCatalog catalog : catalogs())
        {
            assertThat(catalog.settings()).as("settings of %s", catalog.module())
                .allSatisfy(s -> assertThat(s.key()).startsWith("sirocco." + catalog.module() + "."));
        }
    }

    @Test
    void aMisspeltKeyIsReportedAndAKnownOneIsNot()
    {
        final String known = UnknownSettings.known().getFirst().key();
        final Set<String> unknown = UnknownSettings.unknown(Set.of(known, "sirocco.transport.ringBufferBites",
            "java.version"), Map.of("SIROCCO_TRANSPORT_NO_SUCH_THING", "1", "PATH", "/bin"));
        assertThat(unknown).containsExactlyInAnyOrder("sirocco.transport.ringBufferBites",
            "SIROCCO_TRANSPORT_NO_SUCH_THING");
    }
}
