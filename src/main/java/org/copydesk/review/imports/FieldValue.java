package org.copydesk.review.imports;

/** A field's value as the file gave it, before validation. CSV gives only text. */
record FieldValue(Kind kind, String text) {

    enum Kind {
        TEXT("text"), INTEGER("a whole number"), DECIMAL("a decimal number"), BOOLEAN("true/false"),
        NULL("null"), OBJECT("an object"), ARRAY("an array");

        final String description;

        Kind(String description) {
            this.description = description;
        }
    }

    static FieldValue text(String text) {
        return new FieldValue(Kind.TEXT, text);
    }
}
