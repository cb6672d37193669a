package org.copydesk.ui.editor;

import atlantafx.base.theme.Styles;
import java.util.ArrayList;
import java.util.List;
import javafx.beans.binding.Bindings;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.value.ObservableIntegerValue;
import javafx.css.PseudoClass;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.AccessibleRole;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.TextArea;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.ToggleGroup;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import javafx.scene.text.Text;
import javafx.scene.text.TextFlow;
import org.copydesk.review.WordDiff;
import org.copydesk.ui.common.Messages;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/**
 * The reader's text with revisions: above it, "the writer sent a newer version" with
 * the button that shows it, and for a revised article the notes that asked for the changes with a
 * "Show changes / Clean text" switch; below, either the plain text or the word diff — added words
 * underlined and in the success colour, removed ones struck through in the danger colour, so the
 * marks do not rest on colour alone, and a screen reader hears "[added: …]" / "[removed: …]".
 * Binds to {@link RevisionReader} and calls nothing else.
 */
final class RevisionDiffView extends VBox {

    /** The revision header folded to one line in a short window (copydesk.css). */
    private static final PseudoClass FOLDED = PseudoClass.getPseudoClass("folded");

    private final RevisionReader model;
    private final TextArea plain;
    private final ObservableIntegerValue textSize;
    private final TextFlow marked = new TextFlow();
    private final ScrollPane markedPane = new ScrollPane(marked);
    private final Label heading = new Label();
    private final Label notes = new Label();
    private final Label summary = new Label();
    private final ToggleGroup mode = new ToggleGroup();
    /** Whether the revision header shows whole; folded to one line, it keeps the notes and word counts for "More". */
    private final BooleanProperty whole = new SimpleBooleanProperty(true);

    /**
     * @param plain    the reader's plain text (the clean text), which this view shows or covers
     * @param textSize the reader's font size in px
     */
    RevisionDiffView(RevisionReader model, TextArea plain, ObservableIntegerValue textSize) {
        this.model = model;
        this.plain = plain;
        this.textSize = textSize;
        createView();
        initListeners();
    }

    /** Why the last decision was not sent, for the line next to Submit. */
    static Label refusalLine(RevisionReader model) {
        Label refusal = new Label();
        refusal.setId("submit-refused");
        refusal.setWrapText(true);
        refusal.setGraphic(new FontIcon(Feather.ALERT_TRIANGLE));
        refusal.getStyleClass().addAll(Styles.TEXT_SMALL, "submit-refused");
        refusal.textProperty().bind(model.refusalProperty());
        refusal.visibleProperty().bind(model.refusalProperty().isNotEmpty());
        refusal.managedProperty().bind(refusal.visibleProperty());
        return refusal;
    }

    private void createView() {
        StackPane text = new StackPane(plain, markedPane);
        VBox.setVgrow(text, Priority.ALWAYS);
        VBox.setVgrow(plain, null);
        marked.setId("reader-diff");
        marked.getStyleClass().add("reader-diff");
        marked.setPadding(new Insets(8, 10, 8, 10));
        marked.setAccessibleRole(AccessibleRole.TEXT);
        marked.styleProperty().bind(Bindings.concat("-fx-font-size: ", textSize, "px;"));
        markedPane.setFitToWidth(true);
        markedPane.setId("reader-diff-pane");
        markedPane.getStyleClass().add("reader-diff-pane");
        markedPane.setFocusTraversable(true); // the keyboard can scroll the marked text
        getChildren().addAll(createNewerNotice(), createRevisionBox(), text);
        setSpacing(8);
    }

    private Node createNewerNotice() {
        Label text = new Label();
        text.setId("newer-revision");
        text.setWrapText(true);
        text.setMinHeight(Region.USE_PREF_SIZE);
        text.setGraphic(new FontIcon(Feather.FILE_PLUS));
        text.textProperty().bind(model.newerNoticeProperty());
        text.setMaxWidth(Double.MAX_VALUE);
        HBox.setHgrow(text, Priority.ALWAYS);
        Button load = new Button(RevisionWords.loadNewer());
        load.setId("load-newer");
        load.getStyleClass().addAll(Styles.SMALL, Styles.ACCENT);
        load.setMinWidth(Region.USE_PREF_SIZE);
        load.disableProperty().bind(model.takingProperty());
        load.setOnAction(e -> model.loadNewer());
        load.setTooltip(new javafx.scene.control.Tooltip(Messages.text("editor.revision.loadNewer.tooltip",
                EditorView.SHOW_NEWER.getDisplayText())));
        HBox notice = new HBox(10, text, load);
        notice.setAlignment(Pos.CENTER_LEFT);
        notice.setId("newer-notice");
        notice.getStyleClass().add("revision-notice");
        notice.visibleProperty().bind(model.newerNoticeProperty().isNotEmpty());
        notice.managedProperty().bind(notice.visibleProperty());
        return notice;
    }

    private Node createRevisionBox() {
        heading.setId("revision-heading");
        heading.setWrapText(true);
        heading.getStyleClass().add(Styles.TEXT_BOLD);
        heading.setGraphic(new FontIcon(Feather.GIT_COMMIT));
        heading.setMinHeight(Region.USE_PREF_SIZE); // wrapped, never cut short: the text below gives way
        notes.setId("revision-notes");
        notes.setWrapText(true);
        notes.getStyleClass().add("revision-notes");
        ScrollPane notesPane = new ScrollPane(notes);
        notesPane.setFitToWidth(true);
        notesPane.setMaxHeight(84); // long notes scroll; the article keeps its room at 1024x640
        notesPane.setMinHeight(40);
        notesPane.setId("revision-notes-pane");
        notesPane.getStyleClass().add("revision-notes-pane");
        notesPane.visibleProperty().bind(notes.textProperty().isNotEmpty().and(whole));
        notesPane.managedProperty().bind(notesPane.visibleProperty());

        ToggleButton changes = new ToggleButton(RevisionWords.showChanges());
        changes.setId("show-changes");
        changes.getStyleClass().addAll(Styles.LEFT_PILL, Styles.SMALL);
        ToggleButton clean = new ToggleButton(RevisionWords.cleanText());
        clean.setId("clean-text");
        clean.getStyleClass().addAll(Styles.RIGHT_PILL, Styles.SMALL);
        changes.setToggleGroup(mode);
        clean.setToggleGroup(mode);
        changes.setUserData(true);
        clean.setUserData(false);
        summary.setId("revision-summary");
        summary.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        summary.setWrapText(true);
        summary.setMinHeight(Region.USE_PREF_SIZE);
        summary.visibleProperty().bind(whole);
        summary.managedProperty().bind(whole);
        HBox switches = new HBox(0, changes, clean);
        switches.setMinWidth(Region.USE_PREF_SIZE);
        HBox row = new HBox(12, switches, summary);
        row.setAlignment(Pos.CENTER_LEFT);

        VBox box = new VBox(6, heading, notesPane, row);
        box.setId("revision-box");
        box.getStyleClass().add("revision-box");
        box.visibleProperty().bind(model.diffProperty().isNotNull());
        box.managedProperty().bind(box.visibleProperty());
        foldWhenShort(box, row, switches, notesPane);
        return box;
    }

    /**
     * In a short window ({@link ShortWindow}: 1024x640, a laptop's screen at 150 %) the header folds
     * to one line: the heading cut short with "…" (a screen reader still reads it whole), the
     * switches, and "More", which unfolds the writer's notes and the word counts (and "Less" folds
     * them again). Wrapped over its own lines with the notes, the header left the article about
     * nine lines under it and a notice. Every part has a minimum width the reader's pane can give: a
     * line that kept the word counts whole was wider than the pane at 1024 px, and the split pane
     * then laid the header partly under the article list, where a click on "Show changes" landed on
     * the list.
     */
    private void foldWhenShort(VBox box, HBox row, HBox switches, ScrollPane notesPane) {
        ToggleButton more = new ToggleButton();
        more.setId("revision-more");
        more.getStyleClass().addAll(Styles.SMALL, Styles.FLAT);
        more.setMinWidth(Region.USE_PREF_SIZE);
        more.textProperty().bind(Bindings.when(more.selectedProperty()).then(RevisionWords.less()).otherwise(RevisionWords.more()));
        more.setAccessibleText(RevisionWords.moreSpoken());
        HBox line = new HBox(12);
        line.setId("revision-line");
        line.setAlignment(Pos.CENTER_LEFT);
        BooleanProperty shortWindow = new SimpleBooleanProperty(false);
        more.visibleProperty().bind(shortWindow);
        more.managedProperty().bind(shortWindow);
        Runnable place = () -> {
            boolean fold = shortWindow.get() && !more.isSelected();
            boolean focused = more.isFocused();
            whole.set(!fold);
            if (fold) {
                row.getChildren().clear();
                line.getChildren().setAll(heading, switches, summary, more);
                box.getChildren().setAll(line, notesPane);
            } else {
                line.getChildren().clear();
                row.getChildren().setAll(switches, summary, more);
                box.getChildren().setAll(heading, notesPane, row);
            }
            box.pseudoClassStateChanged(FOLDED, fold);
            HBox.setHgrow(heading, fold ? Priority.ALWAYS : null);
            heading.setWrapText(!fold);
            heading.setMinWidth(fold ? 48 : Region.USE_COMPUTED_SIZE); // the mark and "…" at least
            heading.setMinHeight(fold ? Region.USE_COMPUTED_SIZE : Region.USE_PREF_SIZE);
            if (focused) {
                more.requestFocus(); // moved to the other line: the keyboard stays on it
            }
        };
        more.selectedProperty().addListener((o, was, now) -> place.run());
        ShortWindow.follow(box, isShort -> {
            shortWindow.set(isShort);
            place.run();
        });
    }

    private void initListeners() {
        model.diffProperty().addListener((o, was, diff) -> show(diff));
        model.showChangesProperty().addListener((o, was, on) -> showMode());
        mode.selectedToggleProperty().addListener((o, was, now) -> {
            if (now == null) {
                mode.selectToggle(was); // one of the two is always chosen
            } else {
                model.showChangesProperty().set((Boolean) now.getUserData());
            }
        });
        show(model.diffProperty().get());
    }

    private void show(RevisionDiff diff) {
        if (diff == null) {
            marked.getChildren().clear();
            heading.setText("");
            notes.setText("");
            summary.setText("");
        } else {
            heading.setText(diff.heading());
            notes.setText(diff.notes());
            summary.setText(RevisionWords.summary(diff.wordsAdded(), diff.wordsRemoved()) + ". " + RevisionWords.legend());
            marked.getChildren().setAll(texts(diff));
            marked.setAccessibleText(spoken(diff));
            markedPane.setVvalue(0);
        }
        showMode();
    }

    private void showMode() {
        boolean changes = model.diffProperty().get() != null && model.showChangesProperty().get();
        markedPane.setVisible(changes);
        plain.setVisible(!changes);
        mode.getToggles().stream().filter(t -> t.getUserData().equals(model.showChangesProperty().get())).findFirst()
                .ifPresent(mode::selectToggle);
    }

    private static List<Text> texts(RevisionDiff diff) {
        List<Text> out = new ArrayList<>();
        if (diff.titleChanged()) {
            out.add(text(RevisionWords.titleLine(), "diff-label"));
            marks(diff.title(), out);
            out.add(text("\n", "diff-same"));
        }
        if (diff.bylineChanged()) {
            out.add(text(RevisionWords.bylineLine(diff.bylineFrom(), diff.bylineTo()) + "\n", "diff-label"));
        }
        if (!out.isEmpty()) {
            out.add(text("\n", "diff-same"));
        }
        marks(diff.body(), out);
        return out;
    }

    /**
     * The runs as text: the spaces at either end of a changed run are not marked (an underlined
     * or struck-through space reads as a stray line), and a word replaced by another gets a thin
     * space between the two, so "7-2" struck through and "8-1" do not read as one word.
     */
    private static void marks(List<WordDiff.Segment> segments, List<Text> out) {
        WordDiff.Change before = null;
        for (WordDiff.Segment s : segments) {
            String run = s.text();
            String core = run.strip();
            if (s.change() == WordDiff.Change.SAME || core.isEmpty()) {
                out.add(text(run, "diff-same"));
            } else {
                int lead = run.indexOf(core);
                if (before == WordDiff.Change.DELETED && s.change() == WordDiff.Change.INSERTED && lead == 0) {
                    out.add(text("\u2009", "diff-same"));
                }
                addIfAny(out, run.substring(0, lead), "diff-same");
                out.add(text(core, s.change() == WordDiff.Change.INSERTED ? "diff-inserted" : "diff-deleted"));
                addIfAny(out, run.substring(lead + core.length()), "diff-same");
            }
            before = s.change();
        }
    }

    private static void addIfAny(List<Text> out, String s, String styleClass) {
        if (!s.isEmpty()) {
            out.add(text(s, styleClass));
        }
    }

    private static Text text(String s, String styleClass) {
        Text t = new Text(s);
        t.getStyleClass().add(styleClass);
        return t;
    }

    /** The marked text as a screen reader says it. */
    private static String spoken(RevisionDiff diff) {
        StringBuilder s = new StringBuilder(RevisionWords.legend()).append(' ');
        for (WordDiff.Segment g : diff.body()) {
            s.append(switch (g.change()) {
                case SAME -> g.text();
                case INSERTED -> RevisionWords.added(g.text());
                case DELETED -> RevisionWords.removed(g.text());
            });
        }
        return s.toString();
    }
}
