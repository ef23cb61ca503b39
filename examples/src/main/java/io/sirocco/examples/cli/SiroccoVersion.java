package io.sirocco.examples.cli;

import picocli.CommandLine.IVersionProvider;

/** Reports the version recorded in the fat jar's manifest, or "development" when run from classes. */
final class SiroccoVersion implements IVersionProvider
{
    @Override
    public String[] getVersion()
    {
        final String version = SiroccoVersion.class.getPackage().getImplementationVersion();
        return new String[] {"sirocco " + (version != null ? version : "development"), "java " + Runtime.version()};
    }
}
