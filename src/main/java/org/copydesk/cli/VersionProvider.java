package org.copydesk.cli;

import picocli.CommandLine.IVersionProvider;

/** The version from the jar's manifest (set by Maven), or "development". */
public final class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() {
        String v = CopydeskCommand.class.getPackage().getImplementationVersion();
        return new String[] {"Copydesk " + (v == null ? "development" : v)};
    }
}
