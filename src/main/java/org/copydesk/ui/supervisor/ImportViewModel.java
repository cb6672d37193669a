package org.copydesk.ui.supervisor;

import java.nio.file.Path;
import java.util.function.Consumer;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.DoubleProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleDoubleProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import org.copydesk.review.ConnectionTrouble;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.imports.ImportListener;
import org.copydesk.review.imports.ImportProgress;
import org.copydesk.review.imports.ImportReport;
import org.copydesk.ui.common.Messages;
import org.copydesk.ui.common.Notice;
import org.copydesk.ui.common.TaskExecutor;

/**
 * A supervisor's import from the dashboard: the file is read on a background thread, progress
 * comes back to the FX thread at most every 100 ms, and it can be cancelled. Rows kept aside show
 * up in the Quarantine tab when it finishes.
 */
public final class ImportViewModel {

    private final ReviewSession services;
    private final TaskExecutor tasks;
    private final Runnable onFinished;
    private final Consumer<Notice> notices;
    private final BooleanProperty importing = new SimpleBooleanProperty();
    private final DoubleProperty progress = new SimpleDoubleProperty();
    private final StringProperty status = new SimpleStringProperty("");
    private volatile boolean cancelRequested;

    /**
     * @param onFinished runs on the FX thread after an import (reload what it changed)
     * @param notices    where the summary is posted
     */
    public ImportViewModel(ReviewSession services, TaskExecutor tasks, Runnable onFinished, Consumer<Notice> notices) {
        this.services = services;
        this.tasks = tasks;
        this.onFinished = onFinished;
        this.notices = notices;
    }

    public void importFile(Path file) {
        if (importing.get()) {
            return;
        }
        importing.set(true);
        cancelRequested = false;
        progress.set(-1);
        status.set(Messages.text("dashboard.import.importing", file.getFileName().toString()));
        ImportListener listener = new ImportListener() {
            @Override
            public void progress(ImportProgress p) {
                tasks.onUiThread(() -> {
                    progress.set(p.fractionRead());
                    status.set(Messages.text("dashboard.import.progress", file.getFileName().toString(),
                            p.rowsRead(), p.imported(), p.quarantined()));
                });
            }

            @Override
            public boolean cancelRequested() {
                return cancelRequested;
            }
        };
        tasks.run("import " + file.getFileName(), () -> services.importer().importFile(file, services.sessionUser(), listener),
                report -> {
                    importing.set(false);
                    progress.set(1);
                    status.set(summary(report));
                    notices.accept(Notice.of(report.clean() ? Notice.Kind.SUCCESS : Notice.Kind.WARNING, summary(report), 0));
                    onFinished.run();
                }, failure -> {
                    importing.set(false);
                    progress.set(0);
                    status.set(ConnectionTrouble.describe(failure));
                    notices.accept(Notice.of(Notice.Kind.ERROR,
                            Messages.text("dashboard.import.stopped", ConnectionTrouble.describe(failure)), 0));
                    onFinished.run();
                });
    }

    public void cancel() {
        cancelRequested = true;
    }

    static String summary(ImportReport r) {
        String key = r.cancelled() ? "dashboard.import.summaryCancelled"
                : r.clean() ? "dashboard.import.summary" : "dashboard.import.summaryWithRejects";
        return Messages.text(key, r.source().replaceAll(".*[/\\\\]", ""), r.imported(), r.alreadyPresent(), r.quarantined());
    }

    public ReadOnlyBooleanProperty importingProperty() {
        return importing;
    }

    public ReadOnlyDoubleProperty progressProperty() {
        return progress;
    }

    public ReadOnlyStringProperty statusProperty() {
        return status;
    }
}
