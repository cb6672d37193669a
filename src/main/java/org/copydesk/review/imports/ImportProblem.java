package org.copydesk.review.imports;

/** A row that was not imported: the line it starts on in the file and why. */
public record ImportProblem(long line, String reason) {
}
