package org.copydesk.ui.common;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads the UI's sources and its message bundle for {@link MessagesTest} and {@link HardCodedTextTest}:
 * which keys the code names, which keys the bundle has, and which lines still put words on screen
 * without the bundle.
 */
final class UiText {

    static final Path UI_SOURCES = Path.of("src/main/java/org/copydesk/ui");

    /** A key as the code names it: "editor.submit", "dashboard.holders.empty". */
    static final Pattern KEY = Pattern.compile("\"((?:app|common|dashboard|editor|signIn)\\.[A-Za-z0-9.]*[A-Za-z0-9](?<!\\.css))\"");

    /** Calls whose string argument reaches the screen (or a screen reader). */
    static final Pattern SHOWS_TEXT = Pattern.compile("(?:\\b(?:setText|new Label|new Button|new ToggleButton|new CheckBox"
            + "|new RadioButton|new Tooltip|setAccessibleText|setAccessibleHelp|setPromptText|setTitle|setPlaceholder|setHeaderText"
            + "|setContentText|new Tab|new TitledPane|new MenuItem|new CheckMenuItem|new Menu|new TableColumn<>|textColumn"
            + "|numberColumn|muted|sectionTitle|form|tell|new SimpleStringProperty|ExtensionFilter|alert|(?:error|status|summary"
            + "|emptyText|banner|where|waiting|byline|question|answer|historyTitle|capacityWarning)\\.set)\\s*\\("
            + "|Notice\\.Kind\\.\\w+\\s*,)");

    /** A string literal with words in it (two letters or more). */
    private static final Pattern LITERAL = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern WORDS = Pattern.compile("[A-Za-z]{2}");

    /**
     * Literals that may stand in the code, each with its reason. Icon glyphs and symbols carry no
     * letters and pass on their own; these carry letters but are not words for people.
     */
    static final Set<String> ALLOWED = Set.of(
            "*.csv", "*.json", "*.ndjson", "*.jsonl"); // file name patterns of a FileChooser filter, the same in every language

    private UiText() {
    }

    static List<Path> sources() {
        try (Stream<Path> files = Files.walk(UI_SOURCES)) {
            return files.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Set<String> keysUsed() {
        Set<String> keys = new LinkedHashSet<>();
        for (Path file : sources()) {
            Matcher m = KEY.matcher(read(file));
            while (m.find()) {
                keys.add(m.group(1));
            }
        }
        return keys;
    }

    static Properties bundle() {
        Properties p = new Properties();
        try (InputStream in = UiText.class.getResourceAsStream("/org/copydesk/ui/messages.properties")) {
            p.load(new java.io.InputStreamReader(in, java.nio.charset.StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
    }

    /** "File.java:12: literal" for every line of {@code source} that shows words not taken from the bundle. */
    static List<String> hardCodedText(String name, String source) {
        List<String> found = new ArrayList<>();
        String[] lines = source.split("\n", -1);
        boolean inCall = false;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.startsWith("//") || line.startsWith("*") || line.startsWith("/*")) {
                continue;
            }
            String code = line.replaceAll("//.*$", "");
            Matcher call = SHOWS_TEXT.matcher(code);
            // a call that shows text, or the continuation of one ("+ \"…\"" on the next line)
            String looked = call.find() ? code.substring(call.start()) : inCall && code.startsWith("+") ? code : "";
            inCall = !looked.isEmpty() && !code.endsWith(";");
            Matcher literal = LITERAL.matcher(looked);
            while (literal.find()) {
                String text = literal.group(1);
                if (WORDS.matcher(text).find() && !KEY.matcher(literal.group()).matches() && !ALLOWED.contains(text)) {
                    found.add(name + ":" + (i + 1) + ": " + text);
                }
            }
        }
        return found;
    }
}
