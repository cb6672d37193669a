package org.copydesk.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/** Starts a main class of the test class path in a JVM of its own (race tests kill such processes). */
public final class ChildJvm {

    private ChildJvm() {
    }

    /** Starts {@code mainClass} with {@code args}; its output goes to {@code log}. */
    public static Process start(Class<?> mainClass, List<String> args, Path log) {
        return start(mainClass, List.of(), args, log);
    }

    /** As {@link #start(Class, List, Path)}, with extra JVM options (system properties, e.g. another time zone). */
    public static Process start(Class<?> mainClass, List<String> jvmOptions, List<String> args, Path log) {
        return start(mainClass, jvmOptions, args, java.util.Map.of(), log);
    }

    /** As {@link #start(Class, List, List, Path)}, with variables added to the child's environment (a password). */
    public static Process start(Class<?> mainClass, List<String> jvmOptions, List<String> args,
                                java.util.Map<String, String> environment, Path log) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        command.add("-XX:+UseSerialGC"); // small heap, two cores: keep the children light
        command.add("-XX:TieredStopAtLevel=1"); // they live for seconds: start fast rather than peak fast
        command.add("-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"));
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classPath());
        command.add(mainClass.getName());
        command.addAll(args);
        try {
            Files.createDirectories(log.getParent());
            ProcessBuilder builder = new ProcessBuilder(command);
            builder.environment().putAll(environment);
            return builder.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.to(log.toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + mainClass.getName(), e);
        }
    }

    /**
     * The test class path. Surefire may run tests from a manifest-only booter jar whose
     * {@code java.class.path} is that one jar; then the real entries are in its manifest.
     */
    static String classPath() {
        String fromSurefire = System.getProperty("surefire.test.class.path");
        if (fromSurefire != null && !fromSurefire.isBlank()) {
            return fromSurefire;
        }
        String cp = System.getProperty("java.class.path");
        String[] entries = cp.split(File.pathSeparator);
        if (entries.length == 1 && entries[0].endsWith(".jar")) {
            try (JarFile jar = new JarFile(entries[0])) {
                Manifest manifest = jar.getManifest();
                String listed = manifest == null ? null : manifest.getMainAttributes().getValue("Class-Path");
                if (listed != null) {
                    List<String> files = new ArrayList<>();
                    for (String url : listed.trim().split("\\s+")) {
                        files.add(new File(java.net.URI.create(url)).getPath());
                    }
                    return String.join(File.pathSeparator, files);
                }
            } catch (IOException | IllegalArgumentException e) {
                throw new IllegalStateException("cannot read the class path from " + entries[0], e);
            }
        }
        return cp;
    }
}
