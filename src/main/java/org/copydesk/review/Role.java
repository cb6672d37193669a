package org.copydesk.review;

import java.util.Locale;
import org.copydesk.db.schema.enums.EditorRole;

/** What a person may do: review (editor), oversee (supervisor), administer accounts and schema (admin). */
public enum Role {
    EDITOR, SUPERVISOR, ADMIN;

    public boolean canSupervise() {
        return this != EDITOR;
    }

    static Role of(EditorRole role) {
        return Role.valueOf(role.name().toUpperCase(Locale.ROOT));
    }

    EditorRole toDb() {
        return EditorRole.valueOf(name().toLowerCase(Locale.ROOT));
    }
}
