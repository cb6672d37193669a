package org.copydesk.review;

/** One revision of an article's text, as it arrived (table {@code article_revision}). */
public record ArticleRevision(int revision, String title, String byline, String body) {
}
