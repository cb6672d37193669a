package org.copydesk.archfixture.ui.editor;

import org.copydesk.archfixture.review.ArticleService;

/** Breaks wall 5 (a view calling a service) and wall 6 (runLater outside ui.common). */
public final class EditorView {
    public int refresh(ArticleService service) {
        javafx.application.Platform.runLater(() -> { });
        return service.count();
    }
}
