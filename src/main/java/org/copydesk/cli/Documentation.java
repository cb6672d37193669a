package org.copydesk.cli;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where this Copydesk's documentation is, for help texts ({@code ${sys:copydesk.docs}/integration.md}):
 * the Linux packages install it in {@code /usr/share/doc/PACKAGE}; run from the source, it is
 * {@code docs/}. Other installers carry no documentation; their help texts name the source's folder.
 */
final class Documentation {

    /** The system property help texts read. */
    static final String PROPERTY = "copydesk.docs";

    private Documentation() {
    }

    /** Sets {@link #PROPERTY} (unless set) before the commands' help texts are built. */
    static void publish() {
        if (System.getProperty(PROPERTY) == null) {
            System.setProperty(PROPERTY, folder(System.getProperty("jpackage.app-path")));
        }
    }

    /** @param launcher the installed launcher (jpackage's {@code jpackage.app-path}), or null when not installed */
    static String folder(String launcher) {
        if (launcher != null && Path.of(launcher).getParent() != null && Path.of(launcher).getParent().getParent() != null) {
            Path installed = Path.of(launcher).getParent().getParent(); // /opt/PACKAGE/bin/copydesk
            Path shared = Path.of("/usr/share/doc").resolve(String.valueOf(installed.getFileName()));
            if (Files.isDirectory(shared)) {
                return shared.toString();
            }
            return "docs (in Copydesk's source)";
        }
        return "docs";
    }
}
