package org.copydesk.archfixture.ui.editor;

/** A well-behaved view: it knows only its view model and JavaFX. */
public final class DashboardView {
    private final EditorViewModel viewModel = new EditorViewModel();

    public Object root() {
        return new javafx.scene.layout.VBox(viewModel.button());
    }
}
