package org.copydesk.ui.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * WCAG 2.1 AA contrast, both themes: every colour our stylesheets give to text, icons or the focus
 * ring, on each surface it sits on, computed from the Primer tokens with the WCAG relative-luminance
 * formula. Text needs 4.5:1; icons that carry meaning and the focus ring need 3:1 (non-text contrast).
 * A rule in copydesk.css or dashboard.css that colours text or an icon and is not listed here fails
 * the coverage test, so a new colour cannot skip the check. The table lands in target/contrast.md
 * (docs/architecture.md quotes it).
 */
class ContrastTest {

    static final double TEXT = 4.5;
    static final double NON_TEXT = 3.0;

    static final String BG = "-color-bg-default";
    static final String SUBTLE = "-color-bg-subtle";
    static final String OVERLAY = "-color-bg-overlay";

    /** One colour on one surface. {@code rule} is the first selector of a rule in our CSS, or null for the theme's own. */
    record Pair(String what, String rule, String property, String colour, List<String> surface, double minimum) {
    }

    private static final Map<String, Map<String, String>> RULES = rules();

    /** Surfaces: a token, or a rule of ours whose -fx-background-color layers are laid on what is below. */
    static List<Pair> pairs() {
        List<Pair> p = new ArrayList<>();
        // the theme's text as our screens use it
        p.add(theme("body text", "-color-fg-default", BG));
        p.add(theme("body text on side panels, status bar, sign-in", "-color-fg-default", SUBTLE));
        p.add(theme("notice and help-card text", "-color-fg-default", OVERLAY));
        p.add(theme("muted text (text-muted: meta lines, hints, counts)", "-color-fg-muted", BG));
        p.add(theme("muted text on side panels (why Submit is disabled, draft status)", "-color-fg-muted", SUBTLE));
        p.add(theme("danger text (Styles.DANGER)", "-color-danger-fg", BG));
        p.add(theme("links (hyperlink)", "-color-accent-fg", BG));
        p.add(theme("text in the waiting nudge and demo hint", "-color-fg-default", BG, ".waiting-nudge"));
        p.add(theme("text in the capacity warning", "-color-fg-default", SUBTLE, ".capacity-warning"));
        p.add(theme("text in the force-release question", "-color-fg-default", SUBTLE, ".action-question"));
        // our rules
        p.add(ours("toolbar app icon", ".app-name .ikonli-font-icon", NON_TEXT, BG));
        p.add(ours("offline banner text", ".offline-banner", TEXT));
        p.add(ours("offline banner icon", ".offline-banner .ikonli-font-icon", NON_TEXT, ".offline-banner"));
        p.add(ours("empty list icon", ".empty-state .ikonli-font-icon", NON_TEXT, BG));
        p.add(ours("desk badge", ".desk-badge", TEXT, BG));
        p.add(ours("priority badge", ".priority-badge", TEXT, BG));
        p.add(ours("priority 1 badge", ".priority-badge.p1", TEXT, BG));
        p.add(ours("priority 2 badge", ".priority-badge.p2", TEXT, BG));
        p.add(ours("stage badge", ".stage-badge", TEXT, BG));
        p.add(ours("returned badge", ".returned-badge", TEXT, BG));
        p.add(ours("returned badge icon", ".returned-badge .ikonli-font-icon", NON_TEXT, BG, ".returned-badge"));
        p.add(ours("lease countdown", ".countdown", TEXT, BG));
        p.add(ours("lease countdown, running out", ".countdown:expiring", TEXT, BG));
        p.add(ours("running-out icon", ".countdown:expiring .ikonli-font-icon", NON_TEXT, BG));
        p.add(ours("time left before the due time", ".due-time", TEXT, BG));
        p.add(ours("text in the dashboard's search field (ControlsFX's, restyled)", ".custom-text-field", TEXT));
        p.add(ours("late", ".due-time:late", TEXT, BG));
        p.add(ours("late icon", ".due-time:late .ikonli-font-icon", NON_TEXT, BG));
        p.add(ours("success notice icon", ".notice-success .ikonli-font-icon", NON_TEXT, OVERLAY));
        p.add(ours("info notice icon", ".notice-info .ikonli-font-icon", NON_TEXT, OVERLAY));
        p.add(ours("warning notice icon", ".notice-warning .ikonli-font-icon", NON_TEXT, OVERLAY));
        p.add(ours("error notice icon", ".notice-error .ikonli-font-icon", NON_TEXT, OVERLAY));
        p.add(ours("shortcut keys in the help card", ".key", TEXT, OVERLAY));
        p.add(ours("dashboard cell, running out", ".table-cell:expiring", TEXT, BG));
        p.add(ours("dashboard cell, running out (side panel)", ".table-cell:expiring", TEXT, SUBTLE));
        p.add(ours("presence: active", ".presence-active", NON_TEXT, BG));
        p.add(ours("presence: idle", ".presence-idle", NON_TEXT, BG));
        p.add(ours("presence: offline", ".presence-offline", NON_TEXT, BG));
        p.add(ours("capacity warning icon", ".capacity-warning .ikonli-font-icon", NON_TEXT, SUBTLE, ".capacity-warning"));
        p.add(ours("waiting nudge icon", ".waiting-nudge .ikonli-font-icon", NON_TEXT, BG, ".waiting-nudge"));
        p.add(ours("focus ring", ".button:focus-visible", NON_TEXT, BG));
        p.add(ours("focus ring on side panels", ".button:focus-visible", NON_TEXT, SUBTLE));
        // the reader's revision parts
        p.add(theme("words added in the revision diff", "-color-success-fg", BG));
        p.add(theme("text in the revision heading", "-color-fg-default", BG, ".revision-box"));
        p.add(ours("revision heading icon", ".revision-box .ikonli-font-icon", NON_TEXT, BG, ".revision-box"));
        p.add(theme("text in the newer-version notice", "-color-fg-default", BG, ".revision-notice"));
        p.add(ours("newer-version notice icon", ".revision-notice .ikonli-font-icon", NON_TEXT, BG, ".revision-notice"));
        p.add(ours("refusal under Submit", ".submit-refused", TEXT, SUBTLE));
        p.add(ours("inline error", ".inline-error", TEXT, BG));
        p.add(ours("inline error on the side panel", ".inline-error", TEXT, SUBTLE));
        p.add(ours("inline error icon", ".inline-error .ikonli-font-icon", NON_TEXT, SUBTLE));
        p.add(ours("changes waiting", ".held-changes .label", TEXT, BG));
        p.add(ours("changes waiting icon", ".held-changes .ikonli-font-icon", NON_TEXT, BG));
        p.add(ours("force-release question icon", ".action-question .ikonli-font-icon", NON_TEXT, SUBTLE, ".action-question"));
        p.add(ours("outcome done icon", ".outcome-done .ikonli-font-icon", NON_TEXT, SUBTLE));
        p.add(ours("outcome not done icon", ".outcome-lost .ikonli-font-icon", NON_TEXT, SUBTLE));
        p.add(ours("focused table row ring", ".table-view:focused > .virtual-flow > .clipped-container > .sheet > .table-row-cell:focused",
                NON_TEXT, BG));
        p.add(ours("relay: failed count and cell", ".relay-page .relay-count:failed", TEXT, BG));
        p.add(ours("relay: failed icon", ".relay-page .table-cell:failed .ikonli-font-icon", NON_TEXT, BG));
        // selected rows on the dashboard: text on the tint, and the bar against an unselected row and the tint
        String selectedRow = ".dashboard-view .table-view > .virtual-flow > .clipped-container > .sheet > .table-row-cell:filled:selected";
        p.add(theme("text on a selected dashboard row", "-color-fg-default", BG, selectedRow));
        p.add(theme("muted text on a selected dashboard row", "-color-fg-muted", BG, selectedRow));
        p.add(new Pair("selected-row bar beside an unselected row", null, null, "-color-accent-emphasis", List.of(BG), NON_TEXT));
        p.add(new Pair("selected-row bar beside the selected row's tint", null, null, "-color-accent-emphasis",
                List.of(BG, "-color-accent-subtle"), NON_TEXT));
        return p;
    }

    @Test
    void everyPairMeetsAaInBothThemes() throws IOException {
        List<String> failures = new ArrayList<>();
        StringBuilder table = new StringBuilder("| What | Colour on surface | Light | Dark | AA needs |\n|---|---|---|---|---|\n");
        for (Pair pair : pairs()) {
            StringBuilder row = new StringBuilder();
            for (String theme : List.of("light", "dark")) {
                double ratio = ratio(Palette.primer(theme), pair);
                row.append(String.format(Locale.ROOT, " %.2f |", ratio));
                if (ratio < pair.minimum()) {
                    failures.add(String.format(Locale.ROOT, "%s (%s): %.2f:1 in %s, needs %.1f:1", pair.what(), pair.colour(),
                            ratio, theme, pair.minimum()));
                }
            }
            table.append("| ").append(pair.what()).append(" | `").append(pair.colour()).append("` on `")
                    .append(String.join(" + ", pair.surface())).append("` |").append(row)
                    .append(String.format(Locale.ROOT, " %.1f |%n", pair.minimum()));
        }
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target/contrast.md"), table);
        assertThat(failures).isEmpty();
    }

    @Test
    void everyRuleThatColoursTextOrAnIconIsChecked() {
        Set<String> checked = new TreeSet<>();
        pairs().stream().map(Pair::rule).filter(r -> r != null).forEach(checked::add);
        Set<String> unchecked = new TreeSet<>();
        RULES.forEach((selector, declarations) -> {
            if (declarations.containsKey("-fx-text-fill") || declarations.containsKey("-fx-icon-color")) {
                if (!checked.contains(selector)) {
                    unchecked.add(selector);
                }
            }
        });
        assertThat(unchecked).as("add these rules to ContrastTest.pairs()").isEmpty();
    }

    @Test
    void theArithmeticMatchesWcagsExamples() {
        Palette light = Palette.primer("light");
        assertThat(light.contrast("#000000", List.of("#ffffff"))).isCloseTo(21.0, Offset.offset(0.01));
        assertThat(light.contrast("#777777", List.of("#ffffff"))).isCloseTo(4.48, Offset.offset(0.01));
        assertThat(light.contrast("rgba(0, 0, 0, 0.5)", List.of("#ffffff"))).as("translucent text over white")
                .isCloseTo(3.98, Offset.offset(0.01));
    }

    private static double ratio(Palette palette, Pair pair) {
        List<String> layers = new ArrayList<>();
        for (String s : pair.surface()) {
            if (s.startsWith(".")) {
                layers.addAll(Palette.layers(declaration(s, "-fx-background-color")));
            } else {
                layers.add(s);
            }
        }
        return palette.contrast(pair.colour(), layers);
    }

    private static Pair theme(String what, String colour, String... surface) {
        return new Pair(what, null, null, colour, List.of(surface), TEXT);
    }

    /** A rule of ours: its colour from the CSS; a rule with its own background sits on that too. */
    private static Pair ours(String what, String rule, double minimum, String... surface) {
        Map<String, String> d = RULES.get(rule);
        if (d == null) {
            throw new IllegalArgumentException("no rule " + rule + " in copydesk.css or dashboard.css");
        }
        String property = d.containsKey("-fx-text-fill") ? "-fx-text-fill" : d.containsKey("-fx-icon-color") ? "-fx-icon-color"
                : "-fx-border-color";
        List<String> on = new ArrayList<>(List.of(surface));
        if (d.containsKey("-fx-background-color")) {
            on.add(rule);
        }
        return new Pair(what, rule, property, d.get(property).strip(), on, minimum);
    }

    private static String declaration(String rule, String property) {
        String v = RULES.getOrDefault(rule, Map.of()).get(property);
        if (v == null) {
            throw new IllegalArgumentException(rule + " sets no " + property);
        }
        return v;
    }

    /** Our stylesheets as first-selector -> declarations (a rule for several selectors is filed under its first). */
    private static Map<String, Map<String, String>> rules() {
        Map<String, Map<String, String>> rules = new LinkedHashMap<>();
        for (String path : List.of("/org/copydesk/ui/common/copydesk.css", "/org/copydesk/ui/supervisor/dashboard.css")) {
            String css = Palette.resource(path).replaceAll("(?s)/\\*.*?\\*/", "");
            Matcher m = Pattern.compile("([^{}]+)\\{([^{}]*)}").matcher(css);
            while (m.find()) {
                String first = m.group(1).split(",")[0].strip().replaceAll("\\s+", " ");
                Map<String, String> d = rules.computeIfAbsent(first, k -> new LinkedHashMap<>());
                for (String decl : m.group(2).split(";")) {
                    int colon = decl.indexOf(':');
                    if (colon > 0) {
                        d.put(decl.substring(0, colon).strip(), decl.substring(colon + 1).strip());
                    }
                }
            }
        }
        return rules;
    }
}
