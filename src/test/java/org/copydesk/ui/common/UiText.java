package org.copydesk.ui.common;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads the sources that word things for people (the screens in {@code ui}, the review services in
 * {@code review}) and the message bundle, for {@link MessagesTest} and {@link HardCodedTextTest}:
 * which keys the code names, which keys the bundle has, and which lines still give people words
 * that are not from the bundle.
 */
final class UiText {

    static final Path UI_SOURCES = Path.of("src/main/java/org/copydesk/ui");
    static final Path REVIEW_SOURCES = Path.of("src/main/java/org/copydesk/review");

    /** A key as the code names it: "editor.submit", "dashboard.holders.empty", "review.lease.lost.gone". */
    static final Pattern KEY = Pattern.compile(
            "\"((?:app|common|dashboard|editor|signIn|review)\\.[A-Za-z0-9.]*[A-Za-z0-9](?<!\\.css))\"");

    /** Calls whose string argument reaches the screen (or a screen reader). */
    static final Pattern SHOWS_TEXT = Pattern.compile("(?:\\b(?:setText|new Label|new Button|new ToggleButton|new CheckBox"
            + "|new RadioButton|new Tooltip|setAccessibleText|setAccessibleHelp|setPromptText|setTitle|setPlaceholder|setHeaderText"
            + "|setContentText|new Tab|new TitledPane|new MenuItem|new CheckMenuItem|new Menu|new TableColumn<>|textColumn"
            + "|numberColumn|muted|sectionTitle|form|tell|new SimpleStringProperty|ExtensionFilter|alert|(?:error|status|summary"
            + "|emptyText|banner|where|waiting|byline|question|answer|historyTitle|capacityWarning)\\.set)\\s*\\("
            + "|Notice\\.Kind\\.\\w+\\s*,)");

    /**
     * How the review services hand words to people: the message of an exception that screens and
     * commands show as it is ({@code ConnectionTrouble.describe}), or an outcome built with words.
     * An {@code IllegalStateException} reports a bug, for the log and the developer, and is not counted.
     */
    static final Pattern REVIEW_SHOWS_TEXT = Pattern.compile("\\bnew (?!IllegalStateException)\\w*Exception\\s*\\("
            + "|\\bnew (?:DecisionOutcome\\.)?(?:Refused|Lost|LostArticle|Attempt)\\s*\\(");

    private static final String IMPORT_WORDS = "the import's report and the reasons it files with rows it keeps aside are written"
            + " to report files and the database and printed by the command line in English, as the file's owner reads them";

    /**
     * Review classes the scan leaves out, each with its reason. The import's own classes word what
     * they find in a file (reports, the reasons rows are kept aside) for the file's owner and the
     * log, in English, as the command line prints them.
     */
    static final Map<String, String> REVIEW_NOT_SCANNED = Map.of(
            "imports/ArticleImporter.java", IMPORT_WORDS, "imports/ArticleRowValidator.java", IMPORT_WORDS,
            "imports/DropFolder.java", IMPORT_WORDS, "imports/ImportQuarantine.java", IMPORT_WORDS,
            "imports/ImportRun.java", IMPORT_WORDS, "imports/ImportSettings.java", IMPORT_WORDS,
            "imports/DropFolderFiles.java", IMPORT_WORDS, "imports/DroppedFileReader.java", IMPORT_WORDS,
            "imports/SettledInput.java", IMPORT_WORDS);

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

    /** Every source that names keys of the bundle: the screens and the review services. */
    static List<Path> sources() {
        List<Path> all = new ArrayList<>(sources(UI_SOURCES));
        all.addAll(sources(REVIEW_SOURCES));
        return all;
    }

    static List<Path> sources(Path root) {
        try (Stream<Path> files = Files.walk(root)) {
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

    /** "File.java:12: literal" for every line of a screen's {@code source} that shows words not taken from the bundle. */
    static List<String> hardCodedText(String name, String source) {
        return hardCodedText(name, source, SHOWS_TEXT);
    }

    /** "File.java:12: literal" for every line of a review service's {@code source} that hands people words not from the bundle. */
    static List<String> hardCodedReviewText(String name, String source) {
        return hardCodedText(name, source, REVIEW_SHOWS_TEXT);
    }

    private static List<String> hardCodedText(String name, String source, Pattern showsText) {
        List<String> found = new ArrayList<>();
        String[] lines = source.split("\n", -1);
        boolean inCall = false;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.startsWith("//") || line.startsWith("*") || line.startsWith("/*")) {
                continue;
            }
            String code = line.replaceAll("//.*$", "");
            Matcher call = showsText.matcher(code);
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
