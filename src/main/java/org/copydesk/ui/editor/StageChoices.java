package org.copydesk.ui.editor;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.StringBinding;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.copydesk.review.ArticleStage;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.Stage;
import org.copydesk.review.Verdict;

/**
 * Deciding on a desk with a review chain (docs/workflow.md): where the selected article is ("Legal ·
 * 2 of 3"), the decisions made at its stages before, where Approve sends it ("Approve → Legal",
 * "Approve (final)"), a "Needs legal" tick for each later stage entered only when asked, and the
 * earlier stages a send-back may go to instead of the writer. On a desk without stages all of it is
 * empty and the review panel looks as it always did. The choices are kept per article until it is
 * decided, so Undo brings them back with the notes. The database checks every choice again.
 */
final class StageChoices {

    /** A later stage entered only when asked, and whether this decision asks for it. */
    record AskTick(Stage stage, BooleanProperty ticked, boolean askedBefore) {
    }

    /** What the editor chose for one article, kept until it is decided. */
    private record Chosen(String sendBackTo, Set<String> asked) {
    }

    private final EditorContext context;
    private final ObjectProperty<Stage> here = new SimpleObjectProperty<>();
    private final StringProperty line = new SimpleStringProperty("");
    private final ObservableList<String> earlier = FXCollections.observableArrayList();
    private final ObservableList<AskTick> ticks = FXCollections.observableArrayList();
    private final ObservableList<Stage> sendBackStages = FXCollections.observableArrayList();
    private final ObjectProperty<Stage> sendBackTo = new SimpleObjectProperty<>();
    /** Counts the changes of the ticks: what Approve says follows them. */
    private final IntegerProperty tickChanges = new SimpleIntegerProperty();
    private final StringBinding approveLabel;
    private final Map<Long, Chosen> chosen = new HashMap<>();
    private List<Stage> chain = List.of();
    private Set<String> askedBefore = Set.of();
    private long shownId = -1;

    StageChoices(EditorContext context) {
        this.context = context;
        approveLabel = Bindings.createStringBinding(this::describeApprove, here, tickChanges);
    }

    /**
     * The review panel shows {@code row} (null: none): the stage as the desk's chain says at once,
     * the earlier decisions once {@link #opened} has them; the previous article's choices are kept.
     */
    void show(LeaseRow row) {
        remember();
        earlier.clear();
        askedBefore = Set.of();
        shownId = row == null ? -1 : row.id();
        chain = row == null ? List.of() : context.chain(row.article().desk());
        String stageId = row == null ? null : row.article().stage();
        here.set(chain.stream().filter(s -> s.id().equals(stageId)).findFirst().orElse(null));
        line.set(here.get() == null ? "" : StageWords.where(here.get(), chain.size()));
        rebuild(row == null ? null : chosen.get(row.id()));
    }

    /** The article's stage as read when it was opened: what was asked for before and the decisions at its stages. */
    void opened(long articleId, Optional<ArticleStage> read) {
        if (articleId != shownId || read.isEmpty()) {
            return;
        }
        ArticleStage a = read.get();
        askedBefore = Set.copyOf(a.asked());
        earlier.setAll(a.earlier().stream().map(n -> StageWords.note(n, a.pass(), context.zone)).toList());
        remember();
        rebuild(chosen.get(articleId));
    }

    private void rebuild(Chosen was) {
        Stage at = here.get();
        sendBackStages.setAll(at == null ? List.of() : chain.stream().filter(s -> s.position() < at.position()).toList());
        sendBackTo.set(was == null || was.sendBackTo() == null ? null
                : sendBackStages.stream().filter(s -> s.id().equals(was.sendBackTo())).findFirst().orElse(null));
        ticks.setAll(at == null ? List.of() : chain.stream().filter(s -> s.position() > at.position() && s.whenAsked())
                .map(s -> {
                    boolean before = askedBefore.contains(s.id());
                    AskTick t = new AskTick(s, new SimpleBooleanProperty(before || (was != null && was.asked().contains(s.id()))),
                            before);
                    t.ticked().addListener((o, a, b) -> tickChanges.set(tickChanges.get() + 1));
                    return t;
                }).toList());
        tickChanges.set(tickChanges.get() + 1);
    }

    /** Keeps what the editor chose for the article shown, for when it is shown again (or comes back by Undo). */
    private void remember() {
        if (shownId < 0) {
            return;
        }
        Set<String> asked = new HashSet<>();
        ticks.stream().filter(t -> t.ticked().get() && !t.askedBefore()).forEach(t -> asked.add(t.stage().id()));
        chosen.put(shownId, new Chosen(sendBackTo.get() == null ? null : sendBackTo.get().id(), asked));
    }

    /** The article was decided: its choices go. */
    void decided(long articleId) {
        chosen.remove(articleId);
    }

    /** The earlier stage a send-back goes to (null: the writer); only with a send-back. */
    String toStage(Verdict verdict) {
        return verdict == Verdict.SEND_BACK && sendBackTo.get() != null ? sendBackTo.get().id() : null;
    }

    /** The stages this decision asks for ("needs legal"); only with an approval or a send-back, as the database allows. */
    List<String> ask(Verdict verdict) {
        remember();
        if (verdict != Verdict.APPROVE && verdict != Verdict.SEND_BACK) {
            return List.of();
        }
        return ticks.stream().filter(t -> t.ticked().get() && !t.askedBefore()).map(t -> t.stage().id()).toList();
    }

    /** "Approve" on a desk without stages; "Approve → Legal"; "Approve (final)" at the last stage the article enters. */
    private String describeApprove() {
        Stage at = here.get();
        if (at == null) {
            return VerdictWords.label(Verdict.APPROVE);
        }
        Set<String> asked = new HashSet<>(askedBefore);
        ticks.stream().filter(t -> t.ticked().get()).forEach(t -> asked.add(t.stage().id()));
        return chain.stream().filter(s -> s.position() > at.position() && (!s.whenAsked() || asked.contains(s.id())))
                .findFirst().map(StageWords::approveTo).orElseGet(StageWords::approveFinal);
    }

    /** A refusal by the database in words for this article: four eyes says who may approve it instead. */
    String refusal(String message) {
        return StageWords.refusal(message, here.get());
    }

    /** Where the article is in its desk's chain ("Legal · 2 of 3"), for its card; empty on a desk without stages. */
    String badge(HeldArticle article) {
        List<Stage> desksChain = context.chain(article.desk());
        return desksChain.stream().filter(s -> s.id().equals(article.stage())).findFirst()
                .map(s -> StageWords.where(s, desksChain.size())).orElse("");
    }

    /** The stage the selected article is at; null on a desk without stages. */
    ReadOnlyObjectProperty<Stage> here() {
        return here;
    }

    /** "Legal · 2 of 3"; empty on a desk without stages. */
    ReadOnlyStringProperty line() {
        return line;
    }

    /** "Copy edit: Ann Kowalski approved at 14:02 — tightened the intro", oldest first. */
    ObservableList<String> earlier() {
        return earlier;
    }

    ObservableList<AskTick> ticks() {
        return ticks;
    }

    ObservableList<Stage> sendBackStages() {
        return sendBackStages;
    }

    ObjectProperty<Stage> sendBackTo() {
        return sendBackTo;
    }

    StringBinding approveLabel() {
        return approveLabel;
    }
}
