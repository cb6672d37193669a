package org.copydesk.ui.supervisor;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import org.copydesk.review.Desk;
import org.copydesk.review.ImportRejects;
import org.copydesk.ui.common.Messages;

/**
 * The form a supervisor corrects a refused import row in: one field per article field, filled
 * from the row as the import read it (a CSV row and a JSON row alike), so only the wrong value
 * needs changing. The desk is chosen from the desks that exist; when the row named none of them,
 * what it said stays beside the choice.
 */
public final class RowCorrectionForm {

    private final StringProperty externalId = new SimpleStringProperty("");
    private final ObjectProperty<Desk> desk = new SimpleObjectProperty<>();
    private final StringProperty deskAsImported = new SimpleStringProperty("");
    private final StringProperty title = new SimpleStringProperty("");
    private final StringProperty byline = new SimpleStringProperty("");
    private final StringProperty body = new SimpleStringProperty("");
    private final StringProperty priority = new SimpleStringProperty("");
    private final StringProperty availableAt = new SimpleStringProperty("");

    /** Fills the form from the row; empty when there is none. */
    void fill(ImportRejects.Reject reject, List<Desk> desks) {
        Map<String, String> fields = reject == null ? Map.of() : ImportRejects.fieldsOf(reject);
        externalId.set(fields.getOrDefault("external_id", ""));
        String deskText = fields.getOrDefault("desk", "").strip();
        Desk match = desks.stream().filter(d -> d.id().equalsIgnoreCase(deskText)).findFirst().orElse(null);
        desk.set(match);
        deskAsImported.set(match != null || deskText.isEmpty() ? "" : Messages.text("dashboard.quarantine.form.deskWas", deskText));
        title.set(fields.getOrDefault("title", ""));
        String writer = fields.getOrDefault("byline", "");
        byline.set(writer);
        body.set(fields.getOrDefault("body", ""));
        priority.set(fields.getOrDefault("priority", ""));
        availableAt.set(fields.getOrDefault("available_at", ""));
    }

    /** The corrected row by field name, as {@link ImportRejects#requeue(long, Map, String)} takes it; blanks left out. */
    Map<String, String> fields() {
        Map<String, String> fields = new LinkedHashMap<>();
        put(fields, "external_id", externalId.get());
        put(fields, "desk", desk.get() == null ? "" : desk.get().id());
        put(fields, "title", title.get());
        put(fields, "byline", byline.get());
        put(fields, "body", body.get());
        put(fields, "priority", priority.get());
        put(fields, "available_at", availableAt.get());
        return fields;
    }

    private static void put(Map<String, String> fields, String name, String value) {
        if (value != null && !value.isBlank()) {
            fields.put(name, name.equals("body") ? value : value.strip());
        }
    }

    /** A desk in the choice: its name and id. */
    static String describe(Desk d) {
        return d == null ? "" : Messages.text("dashboard.quarantine.form.deskChoice", d.name(), d.id());
    }

    public StringProperty externalIdProperty() {
        return externalId;
    }

    public ObjectProperty<Desk> deskProperty() {
        return desk;
    }

    /** "The row said “nwes”." when its desk is none that exists; empty otherwise. */
    public ReadOnlyStringProperty deskAsImportedProperty() {
        return deskAsImported;
    }

    public StringProperty titleProperty() {
        return title;
    }

    public StringProperty bylineProperty() {
        return byline;
    }

    public StringProperty bodyProperty() {
        return body;
    }

    /** 1 (most urgent) to 5; blank for the default. */
    public StringProperty priorityProperty() {
        return priority;
    }

    /** The embargo, ISO-8601 as in an import file; blank for none. */
    public StringProperty availableAtProperty() {
        return availableAt;
    }
}
